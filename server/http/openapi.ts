import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

/**
 * OpenAPI 3 document generated from the route schemas: a route appears at /openapi.json and /docs by
 * declaring its schema. Registered before any route so that every later route is collected.
 */
export default fp(
  async function openapi(app: FastifyInstance) {
    await app.register(swagger, {
      openapi: {
        openapi: "3.1.0",
        info: {
          title: "Wallet login, NFT data and metadata service",
          version: "1",
          description: "Wallet-signature OpenID Connect login, NFT data from our own indexer, issuer-signed metadata.",
        },
        servers: [{ url: app.config.issuer }],
      },
    });
    await app.register(swaggerUi, { routePrefix: "/docs", staticCSP: true });
    app.get("/openapi.json", { schema: { hide: true } }, async () => app.swagger());
  },
  { name: "openapi", dependencies: ["config"] },
);
