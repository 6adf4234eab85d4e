import net from "node:net";
import { atLocalPort } from "../../support/net";

/** What a service sent to PostgreSQL through the proxy so far. */
export interface QueryCounts {
  /** Statements run: simple queries and extended-protocol executions, BEGIN, COMMIT and ROLLBACK not included. */
  statements: number;
  /** Messages that waited for the database's answer: each simple query (BEGIN and COMMIT too) and each Sync. */
  roundTrips: number;
  /** Statements by their SQL text (whitespace collapsed), to see which ones a request runs. */
  bySql: Record<string, number>;
}

export interface CountingProxy {
  /** `target` (a postgres:// URL) with its host and port replaced by the proxy's. */
  url(target: string): string;
  counts(): QueryCounts;
  /** The SQL of each statement seen (whitespace as sent) with the text parameters it last ran with, to EXPLAIN it. */
  lastRuns(): Map<string, (string | null)[]>;
  close(): Promise<void>;
}

const TRANSACTION_CONTROL = /^(BEGIN|COMMIT|ROLLBACK|START TRANSACTION|END)\b/i;

/**
 * A TCP proxy between a service and PostgreSQL that reads the frontend's messages of the wire protocol and counts
 * them: the service is measured from outside, as it runs in production, with no counting code of its own. SSL is
 * refused (the proxy must read the messages; the server answers 'N' to SSLRequest as a local PostgreSQL does).
 */
export async function startCountingProxy(target: string): Promise<CountingProxy> {
  const { hostname, port } = new URL(target);
  const counts = { statements: 0, roundTrips: 0 };
  const bySql = new Map<string, number>();
  const lastRuns = new Map<string, (string | null)[]>();
  const statement = (sql: string, params: (string | null)[] = []) => {
    lastRuns.set(sql, params);
    if (TRANSACTION_CONTROL.test(sql.trim())) return;
    counts.statements++;
    bySql.set(sql, (bySql.get(sql) ?? 0) + 1);
  };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(port || 5432), hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.once("close", () => sockets.delete(socket));
      socket.on("error", () => socket.destroy());
    }
    client.once("close", () => upstream.destroy());
    upstream.once("close", () => client.destroy());
    upstream.pipe(client);
    // Per connection: the SQL of its named prepared statements and of its portals (the unnamed ones are "").
    const prepared = new Map<string, string>();
    const portals = new Map<string, { sql: string; params: (string | null)[] }>();
    let buffer = Buffer.alloc(0);
    let started = false;
    client.on("data", (chunk: Buffer) => {
      upstream.write(chunk);
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        if (!started) {
          // The startup message (and an SSLRequest before it) has no type byte.
          if (buffer.length < 8) return;
          const length = buffer.readInt32BE(0);
          if (buffer.length < length) return;
          const code = buffer.readInt32BE(4);
          started = code !== 80877103 && code !== 80877104; // SSLRequest, GSSENCRequest
          buffer = buffer.subarray(length);
          continue;
        }
        if (buffer.length < 5) return;
        const length = buffer.readInt32BE(1);
        if (buffer.length < 1 + length) return;
        const type = String.fromCharCode(buffer[0]);
        const body = buffer.subarray(5, 1 + length);
        buffer = buffer.subarray(1 + length);
        const strings = () => body.toString("utf8").split("\0");
        if (type === "Q") {
          counts.roundTrips++;
          statement(strings()[0]);
        } else if (type === "P") {
          const [name, sql] = strings();
          prepared.set(name, sql);
        } else if (type === "B") {
          const [portal, name] = strings();
          portals.set(portal, { sql: prepared.get(name) ?? "", params: bindParams(body) });
        } else if (type === "E") {
          const bound = portals.get(strings()[0]);
          statement(bound?.sql ?? "", bound?.params);
        } else if (type === "S") {
          counts.roundTrips++;
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const proxyPort = (server.address() as net.AddressInfo).port;
  return {
    url: (original) => atLocalPort(original, proxyPort),
    counts() {
      const tidy: Record<string, number> = {};
      for (const [sql, n] of bySql) {
        const key = sql.replace(/\s+/g, " ").trim();
        tidy[key] = (tidy[key] ?? 0) + n;
      }
      return { ...counts, bySql: tidy };
    },
    lastRuns: () => new Map(lastRuns),
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The parameters of a Bind message, as text (the pg driver sends them so); null for SQL NULL. */
function bindParams(body: Buffer): (string | null)[] {
  let at = body.indexOf(0) + 1; // portal
  at = body.indexOf(0, at) + 1; // statement
  at += 2 + 2 * body.readInt16BE(at); // format codes
  const count = body.readInt16BE(at);
  at += 2;
  const params: (string | null)[] = [];
  for (let i = 0; i < count; i++) {
    const length = body.readInt32BE(at);
    at += 4;
    params.push(length === -1 ? null : body.toString("utf8", at, at + length));
    if (length > 0) at += length;
  }
  return params;
}
