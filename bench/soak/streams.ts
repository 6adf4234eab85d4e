import http from "node:http";
import { performance } from "node:perf_hooks";
import type { Answers } from "./answers";

const ROUTE = "GET /events/{network}";

/**
 * What one stream connection does before the client goes away: read a while, stop reading for a while first, or
 * read a moment only (a client on a flaky network, which also gives the family's connect times enough requests).
 */
type Behaviour = "drop" | "stall" | "brief";

/**
 * Event-stream clients that connect, read a while, drop the connection or stall (stop reading, so that the service's
 * buffer for them fills), and come back with `Last-Event-ID`, again and again. The connect time is the answer's
 * latency; the refusals go to `answers` like any other.
 */
export class StreamClients {
  connections = 0;
  events = 0;
  stalls = 0;
  private running = false;
  private loops: Promise<void>[] = [];

  constructor(
    private readonly answers: Answers,
    private readonly base: string,
  ) {}

  /** `clients` that read a while, drop or stall; `brief` more that read a moment each time. */
  start(clients: number, brief: number): void {
    this.running = true;
    for (let i = 0; i < clients; i++) this.loops.push(this.client(i, false));
    for (let i = 0; i < brief; i++) this.loops.push(this.client(i, true));
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }

  private async client(i: number, brief: boolean): Promise<void> {
    let lastId: string | undefined;
    for (let round = 0; this.running; round++) {
      const behaviour: Behaviour = brief ? "brief" : (round + i) % 3 === 2 ? "stall" : "drop";
      lastId = await this.connection(behaviour, lastId);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }

  /** One connection; resolves with the last event id seen (to resume from) once it is over. */
  private connection(behaviour: Behaviour, lastId: string | undefined): Promise<string | undefined> {
    return new Promise((resolve) => {
      const started = performance.now();
      const url = new URL("/events/localhost", this.base);
      let last = lastId;
      let settled = false;
      const done = () => {
        if (settled) return;
        settled = true;
        request.destroy();
        resolve(last);
      };
      const request = http.get(
        url,
        { headers: { accept: "text/event-stream", ...(lastId ? { "last-event-id": lastId } : {}) } },
        (response) => {
          const ms = performance.now() - started;
          if (response.statusCode !== 200) {
            let text = "";
            response.on("data", (chunk) => (text += chunk));
            response.on("end", () => {
              let error: string | undefined;
              try {
                error = (JSON.parse(text) as { error?: string }).error;
              } catch {
                // not JSON: recorded without a code, hence undocumented
              }
              this.answers.record({ family: "events", route: ROUTE, ms, status: response.statusCode!, error });
              done();
            });
            return;
          }
          this.answers.record({ family: "events", route: ROUTE, ms, status: 200 });
          this.connections++;
          let buffer = "";
          response.setEncoding("utf8");
          response.on("data", (chunk: string) => {
            buffer += chunk;
            const lines = buffer.split("\n");
            buffer = lines.pop()!;
            for (const line of lines) {
              if (line.startsWith("id:")) last = line.slice(3).trim();
              if (line.startsWith("data:")) this.events++;
            }
          });
          response.on("end", done);
          response.on("error", done);
          const readMs = behaviour === "brief" ? 500 + Math.random() * 1_000 : 5_000 + Math.random() * 10_000;
          if (behaviour === "stall") {
            // Stops reading: the socket's buffers fill and the service must hold no more than its bound for it.
            setTimeout(() => {
              this.stalls++;
              response.pause();
              setTimeout(() => {
                response.resume();
                setTimeout(done, 3_000);
              }, 20_000);
            }, readMs / 2);
          } else setTimeout(done, readMs);
        },
      );
      request.on("error", () => {
        if (!settled) this.answers.record({ family: "events", route: ROUTE, ms: performance.now() - started, status: 0 });
        done();
      });
      request.setTimeout(60_000, done);
    });
  }
}
