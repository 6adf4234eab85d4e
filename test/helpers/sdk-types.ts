import path from "node:path";
import openapiTS, { astToString, type OpenAPI3 } from "openapi-typescript";
import prettier from "prettier";
import { SMALL_INTEGER_FIELDS } from "../../sdk/src/json";

/** The SDK's generated types, committed; `UPDATE_SNAPSHOTS=true` rewrites them from the service's document. */
export const SDK_TYPES_FILE = path.join(__dirname, "../../sdk/src/generated/openapi.ts");

const HEADER = `// Generated from the service's OpenAPI document (/openapi.json) by openapi-typescript; do not edit.
// The answers' integers are decimal strings, as the SDK reads them (sdk/src/json.ts). Regenerate with
// UPDATE_SNAPSHOTS=true npx hardhat test test/sdk/types.test.ts
`;

type Schema = { type?: unknown; properties?: Record<string, Schema>; items?: Schema; anyOf?: Schema[]; oneOf?: Schema[]; allOf?: Schema[] };
type Document = { paths: Record<string, Record<string, { responses?: Record<string, Answer> }>> };
type Answer = { content?: Record<string, { schema?: Schema }>; headers?: Record<string, { schema?: Schema }> };

/**
 * `schema` with its integers as decimal strings, as sdk/src/json.ts reads them: all but the small fields' (`name`
 * is the property the schema is the value of, through arrays and unions).
 */
function integersAsStrings(schema: Schema, name?: string): Schema {
  if (schema.type === "integer") return name !== undefined && SMALL_INTEGER_FIELDS.includes(name) ? schema : { ...schema, type: "string" };
  const copy: Schema = { ...schema };
  if (schema.properties) {
    copy.properties = Object.fromEntries(Object.entries(schema.properties).map(([key, value]) => [key, integersAsStrings(value, key)]));
  }
  if (schema.items) copy.items = integersAsStrings(schema.items, name);
  for (const union of ["anyOf", "oneOf", "allOf"] as const)
    if (schema[union]) copy[union] = schema[union].map((member) => integersAsStrings(member, name));
  return copy;
}

/** The document with its answers' (bodies' and headers') integers as the SDK reads them. */
function asTheSdkReadsIt(document: Document): Document {
  const copy = structuredClone(document);
  for (const operations of Object.values(copy.paths)) {
    for (const operation of Object.values(operations)) {
      for (const answer of Object.values(operation.responses ?? {})) {
        for (const part of [...Object.values(answer.content ?? {}), ...Object.values(answer.headers ?? {})]) {
          if (part.schema) part.schema = integersAsStrings(part.schema);
        }
      }
    }
  }
  return copy;
}

/** The SDK's types module for `document`, formatted as the repository formats TypeScript. */
export async function generateSdkTypes(document: unknown): Promise<string> {
  const ast = await openapiTS(asTheSdkReadsIt(document as Document) as unknown as OpenAPI3, { silent: true });
  const options = await prettier.resolveConfig(SDK_TYPES_FILE);
  return prettier.format(HEADER + astToString(ast), { ...options, parser: "typescript" });
}
