import net from "node:net";

export interface Answer {
  status: number;
  body: string;
}

/**
 * One keep-alive HTTP/1.1 connection that sends one request at a time and reads answers with a Content-Length (what
 * the service sends for every JSON answer): the load generator of the login bench. It shares the machine's 2 cores
 * with the service and PostgreSQL, and node:http's client cost about 0.4 ms more CPU per login (three requests) than
 * this, CPU the service then did not get.
 */
export class KeepAliveConnection {
  private readonly socket: net.Socket;
  private readonly host: string;
  private received: Buffer = Buffer.alloc(0);
  private waiting?: { resolve: (answer: Answer) => void; reject: (error: Error) => void };
  private failure?: Error;

  constructor(url: string) {
    const { hostname, port } = new URL(url);
    this.host = port ? `${hostname}:${port}` : hostname;
    this.socket = net.connect({ host: hostname, port: Number(port || 80), noDelay: true });
    this.socket.on("data", (chunk: Buffer) => this.onData(chunk));
    this.socket.on("error", (error) => this.fail(error));
    this.socket.on("close", () => this.fail(new Error("the service closed the connection")));
  }

  /** Sends one request and resolves with its answer; rejects when the connection fails or the answer is unreadable. */
  request(method: string, path: string, body?: string, contentType?: string): Promise<Answer> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.waiting) return Promise.reject(new Error("one request at a time on a connection"));
    let head = `${method} ${path} HTTP/1.1\r\nhost: ${this.host}\r\n`;
    if (body !== undefined) head += `content-type: ${contentType}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n`;
    const answer = new Promise<Answer>((resolve, reject) => (this.waiting = { resolve, reject }));
    this.socket.write(`${head}\r\n${body ?? ""}`);
    return answer;
  }

  close(): void {
    this.failure ??= new Error("closed");
    this.socket.destroy();
  }

  private onData(chunk: Buffer): void {
    this.received = this.received.length ? Buffer.concat([this.received, chunk]) : chunk;
    const headEnd = this.received.indexOf("\r\n\r\n");
    if (headEnd < 0) return;
    const head = this.received.toString("latin1", 0, headEnd);
    const status = /^HTTP\/1\.1 (\d{3}) /.exec(head);
    const length = /\r\ncontent-length: *(\d+)\r?$/im.exec(head);
    if (!status || !length) return this.fail(new Error(`an answer this client cannot read:\n${head}`));
    const bodyEnd = headEnd + 4 + Number(length[1]);
    if (this.received.length < bodyEnd) return;
    const body = this.received.toString("utf8", headEnd + 4, bodyEnd);
    this.received = this.received.subarray(bodyEnd);
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.resolve({ status: Number(status[1]), body });
  }

  private fail(error: Error): void {
    this.failure ??= error;
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.reject(error);
  }
}
