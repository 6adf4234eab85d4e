import type { ServerResponse } from "node:http";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import helmet from "helmet";

/** What helmet does to an answer: headers set, headers removed. */
type Effect = { set: string; value: number | string | readonly string[] } | { remove: string };

/**
 * What helmet's default middleware does to every answer, asked of it once: it sets the same headers whatever the
 * request (no option here depends on one), so it runs on a response that only records its calls. helmet stays the
 * source of the headers and their values; test/server/http/security-headers.test.ts checks them on real answers.
 */
function helmetEffects(): Effect[] {
  const effects: Effect[] = [];
  const recorder = {
    setHeader(name: string, value: number | string | readonly string[]) {
      effects.push({ set: name, value });
    },
    removeHeader(name: string) {
      effects.push({ remove: name });
    },
  };
  let called = false;
  helmet()({} as never, recorder as never, (error?: unknown) => {
    if (error) throw error as Error;
    called = true;
  });
  if (!called) throw new Error("helmet's middleware did not finish at once");
  return effects;
}

/**
 * helmet's default security headers on every answer. The middleware runs once, at start, and each answer gets the
 * headers it set: running it for each request (a dozen middlewares, each a header) cost a few percent of the lightest
 * route's CPU, and `@fastify/helmet` even built it again for each request, parsing the CSP directives every time.
 * Routes that need their own policy (the HTML pages' CSP) set the header themselves afterwards.
 */
async function securityHeaders(app: FastifyInstance): Promise<void> {
  const effects = helmetEffects();
  const apply = (response: ServerResponse) => {
    for (const effect of effects) {
      if ("set" in effect) response.setHeader(effect.set, effect.value);
      else response.removeHeader(effect.remove);
    }
  };
  app.addHook("onRequest", (request, reply, done) => {
    apply(reply.raw);
    done();
  });
}

export default fp(securityHeaders, { name: "security-headers" });
