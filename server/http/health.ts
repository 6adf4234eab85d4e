import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { withTimeout } from "../db/database";
import { refusals } from "./refusals";

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
    {
      schema: {
        tags: ["service"],
        summary: "Liveness",
        description: '`{status: "ok"}` while the process runs: for restarts. It asks nothing of the database or the nodes (see /ready).',
        response: { 200: Type.Object({ status: Type.Literal("ok") }), ...refusals() },
      },
    },
    async () => ({ status: "ok" as const }),
  );

  app.get(
    "/ready",
    {
      schema: {
        tags: ["service"],
        summary: "Readiness: database and every configured network",
        description:
          "Whether this instance can serve: the database answers and every configured network's node answers with the right " +
          "chain id, each within 3 s (for load balancers). 503 `not_ready` names what failed; it recovers by itself.",
        response: {
          200: Type.Object({ status: Type.Literal("ready"), checks: Checks }),
          ...refusals(),
          503: Type.Object(
            { error: Type.Literal("not_ready"), message: Type.String(), checks: Checks },
            { description: "`not_ready`: the database or a configured network's node failed its check (message and checks say which)" },
          ),
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
