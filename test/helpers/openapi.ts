/** The parts of the OpenAPI document the tests read. */
export interface Parameter {
  in: "path" | "query" | "header";
  name: string;
  required?: boolean;
  example?: unknown;
}

export interface Operation {
  summary?: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { example?: unknown }> };
  /** The credentials it takes (the security schemes' names), absent or empty for an open route. */
  security?: Array<Record<string, string[]>>;
  responses: Record<
    string,
    { description?: string; content?: Record<string, { schema?: { properties?: Record<string, { enum?: string[] }> } }> }
  >;
}

export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
}

/** Every operation of the document as `METHOD /path` with its object. */
export function operations(document: OpenApiDocument): Array<{ name: string; method: string; path: string; operation: Operation }> {
  return Object.entries(document.paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod).map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, method, path, operation })),
  );
}

/**
 * The request an operation's examples make, as Swagger UI's "Try it out" sends it: path parameters filled in, each
 * query parameter with a non-empty example (Swagger UI leaves empty optional ones out), headers likewise.
 */
export function exampleRequest(path: string, operation: Operation): { url: string; headers: Record<string, string> } {
  let url = path;
  const query = new URLSearchParams();
  const headers: Record<string, string> = {};
  for (const parameter of operation.parameters ?? []) {
    const value = String(parameter.example);
    if (parameter.in === "path") url = url.replace(`{${parameter.name}}`, encodeURIComponent(value));
    else if (value !== "" && parameter.in === "query") query.set(parameter.name, value);
    else if (value !== "" && parameter.in === "header") headers[parameter.name] = value;
  }
  const search = query.toString();
  return { url: search ? `${url}?${search}` : url, headers };
}
