/**
 * The least a FastCGI client needs to ask IIPImage for a tile directly, with no web server in
 * front whose own cost would be counted against it: one connection kept open (FCGI_KEEP_CONN),
 * one request at a time. https://fastcgi-archives.github.io/FastCGI_Specification.html
 */
import net from 'node:net';

const VERSION = 1;
const BEGIN_REQUEST = 1;
const END_REQUEST = 3;
const PARAMS = 4;
const STDIN = 5;
const STDOUT = 6;
const RESPONDER = 1;
const KEEP_CONN = 1;
const REQUEST_ID = 1;

function record(type: number, content: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.writeUInt8(VERSION, 0);
  header.writeUInt8(type, 1);
  header.writeUInt16BE(REQUEST_ID, 2);
  header.writeUInt16BE(content.length, 4);
  return Buffer.concat([header, content]);
}

function length(n: number): Buffer {
  if (n < 128) return Buffer.from([n]);
  const b = Buffer.alloc(4);
  b.writeUInt32BE((n | 0x80000000) >>> 0);
  return b;
}

function params(values: Record<string, string>): Buffer {
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(values)) {
    const n = Buffer.from(name);
    const v = Buffer.from(value);
    parts.push(length(n.length), length(v.length), n, v);
  }
  return Buffer.concat(parts);
}

export interface CgiResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Splits a CGI answer ("Status: 200 OK\r\nContent-Type: …\r\n\r\nbody"). */
function cgiResponse(output: Buffer): CgiResponse {
  const end = output.indexOf('\r\n\r\n');
  const head = output.subarray(0, end).toString('latin1');
  const headers: Record<string, string> = {};
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  const status = Number(/^(\d{3})/.exec(headers.status ?? '200')?.[1] ?? 200);
  return { status, headers, body: output.subarray(end + 4) };
}

export class FastCgiClient {
  private socket: net.Socket | null = null;
  private pending: Buffer[] = [];
  private waiting: { resolve: (r: CgiResponse) => void; reject: (e: Error) => void } | null = null;
  private buffered: Buffer<ArrayBufferLike> = Buffer.alloc(0);

  constructor(
    private readonly host: string,
    private readonly port: number,
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
    // The server may close after a request when it does not keep connections: reconnect then.
    socket.on('close', () => {
      if (this.socket === socket) this.socket = null;
      this.waiting?.reject(new Error('FastCGI connection closed mid-request'));
      this.waiting = null;
    });
    socket.on('error', () => {});
    this.socket = socket;
    this.buffered = Buffer.alloc(0);
    return socket;
  }

  private read(chunk: Buffer): void {
    this.buffered = this.buffered.length ? Buffer.concat([this.buffered, chunk]) : chunk;
    while (this.buffered.length >= 8) {
      const type = this.buffered.readUInt8(1);
      const contentLength = this.buffered.readUInt16BE(4);
      const padding = this.buffered.readUInt8(6);
      const total = 8 + contentLength + padding;
      if (this.buffered.length < total) return;
      const content = this.buffered.subarray(8, 8 + contentLength);
      this.buffered = this.buffered.subarray(total);
      if (type === STDOUT) this.pending.push(content);
      if (type === END_REQUEST) {
        const answer = cgiResponse(Buffer.concat(this.pending));
        this.pending = [];
        const waiting = this.waiting;
        this.waiting = null;
        waiting?.resolve(answer);
      }
    }
  }

  /** GET `uri` (path and query) with the CGI variables a web server would pass. */
  async get(uri: string): Promise<CgiResponse> {
    const socket = await this.connect();
    const [path, query = ''] = uri.split('?');
    const begin = Buffer.alloc(8);
    begin.writeUInt16BE(RESPONDER, 0);
    begin.writeUInt8(KEEP_CONN, 2);
    const answer = new Promise<CgiResponse>((resolve, reject) => {
      this.waiting = { resolve, reject };
    });
    socket.write(
      Buffer.concat([
        record(BEGIN_REQUEST, begin),
        record(
          PARAMS,
          params({
            REQUEST_METHOD: 'GET',
            REQUEST_URI: uri,
            SCRIPT_NAME: '',
            PATH_INFO: path!,
            QUERY_STRING: query,
            SERVER_NAME: this.host,
            SERVER_PORT: String(this.port),
            SERVER_PROTOCOL: 'HTTP/1.1',
            HTTP_HOST: `${this.host}:${this.port}`,
          }),
        ),
        record(PARAMS, Buffer.alloc(0)),
        record(STDIN, Buffer.alloc(0)),
      ]),
    );
    return answer;
  }

  close(): void {
    this.socket?.destroy();
    this.socket = null;
  }
}
