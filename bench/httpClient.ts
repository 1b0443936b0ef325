/**
 * A bare HTTP/1.1 GET over one kept-open connection, one request at a time: as little client
 * work as the FastCGI client on IIPImage's side, so neither side's figure carries a heavier
 * client than the other (fetch alone costs a few hundred µs a request). Answers with a
 * Content-Length only (what Folia, nginx and static servers send for files and buffers).
 */
import net from 'node:net';

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export class HttpClient {
  private socket: net.Socket | null = null;
  private buffered: Buffer<ArrayBufferLike> = Buffer.alloc(0);
  private waiting: { resolve: (r: HttpResponse) => void; reject: (e: Error) => void } | null = null;

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly extraHeaders: Record<string, string> = {},
  ) {}

  private async connect(): Promise<net.Socket> {
    if (this.socket && !this.socket.destroyed) return this.socket;
    const socket = net.connect(this.port, this.host);
    socket.setNoDelay(true);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    socket.on('data', (chunk: Buffer) => this.read(chunk));
    socket.on('close', () => {
      if (this.socket === socket) this.socket = null;
      this.waiting?.reject(new Error('HTTP connection closed mid-request'));
      this.waiting = null;
    });
    socket.on('error', () => {});
    this.socket = socket;
    this.buffered = Buffer.alloc(0);
    return socket;
  }

  private read(chunk: Buffer): void {
    this.buffered = this.buffered.length ? Buffer.concat([this.buffered, chunk]) : chunk;
    const end = this.buffered.indexOf('\r\n\r\n');
    if (end < 0) return;
    const lines = this.buffered.subarray(0, end).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    const size = Number(headers['content-length'] ?? 0);
    if (this.buffered.length < end + 4 + size) return;
    const body = this.buffered.subarray(end + 4, end + 4 + size);
    this.buffered = this.buffered.subarray(end + 4 + size);
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.resolve({ status: Number(lines[0]!.split(' ')[1]), headers, body });
  }

  async get(path: string, headers: Record<string, string> = {}): Promise<HttpResponse> {
    const socket = await this.connect();
    const answer = new Promise<HttpResponse>((resolve, reject) => {
      this.waiting = { resolve, reject };
    });
    const all = { host: `${this.host}:${this.port}`, ...this.extraHeaders, ...headers };
    const head = Object.entries(all)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.write(`GET ${path} HTTP/1.1\r\n${head}\r\n`);
    return answer;
  }

  close(): void {
    this.socket?.destroy();
    this.socket = null;
  }
}
