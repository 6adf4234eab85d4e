import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { EXAMPLE_KEYWORD, exampleValues, neutralExamples, type ApiExamples, type ExampleName } from "./openapi-examples";

export interface OpenApiOptions {
  /**
   * The examples of the document, over neutral ones (server/http/openapi-examples.ts). Read when the document is first
   * built, at its first request: values that exist only once the app runs (the demo's login client, stored in the
   * app's database) can be given.
   */
  examples?: () => Partial<ApiExamples>;
}

/**
 * The one inline style of Swagger UI's bundle: the `<style>` of its small SVG logo. Hashed so that the page runs under a
 * policy without 'unsafe-inline'; a new Swagger UI with other inline styles shows a CSP error in the console, which
 * the browser test of /docs fails on.
 */
const SWAGGER_UI_STYLE_HASH = "'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='";

/** /docs' policy: its own scripts and styles only, and "Try it out" requests to this service (the page's origin or ISSUER's). */
export function docsCsp(issuer: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'self' ${SWAGGER_UI_STYLE_HASH}`,
    "img-src 'self' data:",
    `connect-src 'self' ${new URL(issuer).origin}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

type Operation = {
  parameters?: Array<{ example?: unknown; schema?: Record<string, unknown> }>;
  requestBody?: { content: Record<string, { example?: unknown; schema?: Record<string, unknown> }> };
};

/**
 * Replaces each schema's {@link EXAMPLE_KEYWORD} with the value it names: a parameter's `example`, a request body's
 * media `example`.
 */
function fillExamples(document: { paths?: Record<string, Record<string, Operation>> }, values: Record<ExampleName, unknown>) {
  const take = (schema: Record<string, unknown> | undefined): { found: boolean; value?: unknown } => {
    const name = schema?.[EXAMPLE_KEYWORD] as ExampleName | undefined;
    if (name === undefined) return { found: false };
    delete schema![EXAMPLE_KEYWORD];
    if (!(name in values)) throw new Error(`OpenAPI example "${name}" has no value`);
    return { found: true, value: values[name] };
  };
  for (const operations of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      for (const parameter of operation.parameters ?? []) {
        const { found, value } = take(parameter.schema);
        if (found) parameter.example = value;
      }
      for (const media of Object.values(operation.requestBody?.content ?? {})) {
        const { found, value } = take(media.schema);
        if (found) media.example = value;
      }
    }
  }
}

/**
 * OpenAPI 3 document generated from the route schemas: a route appears at /openapi.json and /docs by
 * declaring its schema. Registered before any route so that every later route is collected.
 */
export default fp<OpenApiOptions>(
  async function openapi(app: FastifyInstance, options: OpenApiOptions) {
    await app.register(swagger, {
      openapi: {
        openapi: "3.1.0",
        info: {
          title: "Wallet login, NFT data and metadata service",
          version: "1",
          description:
            "Wallet-signature OpenID Connect login, NFT data from our own indexer, issuer-signed metadata. " +
            "Errors are `{error, message}` with a stable snake_case `error` code (docs/reference/api.md); each operation lists the codes it can give. " +
            "The examples work against the deployment that serves this document: on `npm start`'s local demo, its network, contracts and user.",
        },
        servers: [{ url: app.config.issuer }],
        components: {
          securitySchemes: {
            bearer: {
              type: "http",
              scheme: "bearer",
              description: "A client_credentials access token of a registered client (POST /token)",
            },
          },
        },
      },
      transformObject: (built) => {
        const document = (built as { openapiObject: Parameters<typeof fillExamples>[0] }).openapiObject;
        fillExamples(document, exampleValues({ ...neutralExamples(app.config), ...options.examples?.() }));
        return document as object;
      },
    });
    await app.register(swaggerUi, { routePrefix: "/docs", staticCSP: docsCsp(app.config.issuer), validatorUrl: false });
    app.get("/openapi.json", { schema: { hide: true } }, async () => app.swagger());
  },
  { name: "openapi", dependencies: ["config"] },
);
