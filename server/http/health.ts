import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { withTimeout } from "../db/database";

const CHECK_TIMEOUT_MS = 3_000;

const Checks = Type.Object({
  database: Type.String({ description: '"ok" or what failed' }),
  networks: Type.Record(Type.String(), Type.String(), { description: 'per configured network: "ok" or what failed' }),
});

/**
 * `/health`: the process is up (for restarts). `/ready`: the database answers and every configured network
 * answers with the right chain id (for load balancers); 503 names what failed, and recovers by itself.
 */
const health: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    "/health",
    { schema: { tags: ["service"], summary: "Liveness", response: { 200: Type.Object({ status: Type.Literal("ok") }) } } },
    async () => ({ status: "ok" as const }),
  );

  app.get(
    "/ready",
    {
      schema: {
        tags: ["service"],
        summary: "Readiness: database and every configured network",
        response: {
          200: Type.Object({ status: Type.Literal("ready"), checks: Checks }),
          503: Type.Object({ error: Type.Literal("not_ready"), message: Type.String(), checks: Checks }),
        },
      },
    },
    async (_request, reply) => {
      const failures: string[] = [];
      const outcome = (what: string) => (error: unknown) => {
        const text = error instanceof Error ? error.message : String(error);
        failures.push(`${what}: ${text}`);
        return text;
      };
      const names = app.networks.configured();
      const [database, ...networkResults] = await Promise.all([
        withTimeout(app.db.ping(CHECK_TIMEOUT_MS), CHECK_TIMEOUT_MS, "the database").then(() => "ok", outcome("database")),
        ...names.map((name) =>
          withTimeout(app.networks.check(name), CHECK_TIMEOUT_MS, `the ${name} node`).then(() => "ok", outcome(`network ${name}`)),
        ),
      ]);
      const checks = { database, networks: Object.fromEntries(names.map((name, i) => [name, networkResults[i]])) };
      if (failures.length === 0) return { status: "ready" as const, checks };
      return reply.code(503).send({ error: "not_ready" as const, message: failures.join("; "), checks });
    },
  );
};

export default health;
