import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import helmet from "helmet";

/**
 * helmet's default security headers on every answer. The middleware is built once: `@fastify/helmet` builds it again
 * for each request (parsing the CSP directives every time), which was a few percent of a login's CPU. Routes that
 * need their own policy (the HTML pages' CSP) set the header themselves afterwards.
 */
async function securityHeaders(app: FastifyInstance): Promise<void> {
  const apply = helmet();
  app.addHook("onRequest", (request, reply, done) => apply(request.raw, reply.raw, (error) => done(error as Error | undefined)));
}

export default fp(securityHeaders, { name: "security-headers" });
