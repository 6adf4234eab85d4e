import fs from "node:fs";

/** The service's memory after a full garbage collection, as the soak samples it (MiB). */
export interface LiveMemory {
  rssMiB: number;
  heapUsedMiB: number;
  /** Each V8 heap space's used size (old_space, new_space, code_space, large_object_space, …). */
  spacesMiB: Record<string, number>;
}

/** Evaluated in the service: its memory and its heap spaces, as JSON. */
const MEMORY_EXPRESSION = `JSON.stringify({
  memory: process.memoryUsage(),
  spaces: process.getBuiltinModule("node:v8").getHeapSpaceStatistics().map((s) => [s.space_name, s.space_used_size]),
})`;

const mib = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;

/**
 * A client of the service's inspector (the service runs with `--inspect=127.0.0.1:<port>`), over the DevTools
 * protocol: it forces a full garbage collection before it reads the memory, so that what is sampled is what the
 * service still holds, not how much garbage the last collection left; and it writes heap snapshots on request.
 */
export class Inspector {
  private nextId = 1;
  private readonly calls = new Map<number, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();
  private onChunk: ((chunk: string) => void) | undefined;

  private constructor(private readonly socket: WebSocket) {
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(String(event.data)) as {
        id?: number;
        method?: string;
        params?: { chunk?: string };
        result?: unknown;
        error?: { message: string };
      };
      if (message.method === "HeapProfiler.addHeapSnapshotChunk") this.onChunk?.(message.params!.chunk!);
      const call = message.id === undefined ? undefined : this.calls.get(message.id);
      if (!call) return;
      this.calls.delete(message.id!);
      if (message.error) call.reject(new Error(message.error.message));
      else call.resolve(message.result);
    });
    socket.addEventListener("close", () => {
      for (const call of this.calls.values()) call.reject(new Error("the service's inspector closed"));
      this.calls.clear();
    });
  }

  /** Connects to the inspector listening on 127.0.0.1:`port`. */
  static async connect(port: number): Promise<Inspector> {
    const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Array<{ webSocketDebuggerUrl: string }>;
    const socket = new WebSocket(targets[0].webSocketDebuggerUrl);
    await new Promise<void>((resolve, reject) => {
      socket.addEventListener("open", () => resolve(), { once: true });
      socket.addEventListener("error", () => reject(new Error(`cannot reach the service's inspector on port ${port}`)), { once: true });
    });
    return new Inspector(socket);
  }

  private call<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.calls.set(id, { resolve: resolve as (result: unknown) => void, reject });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  /** The service's RSS, heap used and heap spaces right after a full garbage collection. */
  async liveMemory(): Promise<LiveMemory> {
    await this.call("HeapProfiler.collectGarbage");
    const { result } = await this.call<{ result: { value: string } }>("Runtime.evaluate", {
      expression: MEMORY_EXPRESSION,
      returnByValue: true,
    });
    const { memory, spaces } = JSON.parse(result.value) as { memory: NodeJS.MemoryUsage; spaces: Array<[string, number]> };
    return {
      rssMiB: mib(memory.rss),
      heapUsedMiB: mib(memory.heapUsed),
      spacesMiB: Object.fromEntries(spaces.map(([name, used]) => [name, mib(used)])),
    };
  }

  /** Writes a heap snapshot of the service (which also collects its garbage first) to `file`. */
  async writeSnapshot(file: string): Promise<void> {
    const out = fs.createWriteStream(file);
    this.onChunk = (chunk) => out.write(chunk);
    try {
      await this.call("HeapProfiler.takeHeapSnapshot", { reportProgress: false });
    } finally {
      this.onChunk = undefined;
      await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
    }
  }

  close(): void {
    this.socket.close();
  }
}
