/**
 * The servers Folia's IIIF tiles are measured against, each started as a process of its own on a
 * free local port: IIPImage (Debian's iipimage-server: `iipsrv.fcgi --bind`, spoken to over
 * FastCGI with no web server in front) and nginx serving the same tiles as static files (the
 * ceiling: no decoding, no rights, no cache lookup). Neither is installed by the benchmark.
 * Beside them, a bare node:http server sending the same tiles from memory: Node's own floor.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const IIPSRV = '/usr/lib/iipimage-server/iipsrv.fcgi';
export const NGINX = '/usr/sbin/nginx';

export interface PeerServer {
  port: number;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function listening(port: number, child: ChildProcess, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${what} exited (${child.exitCode})`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`${what} does not listen on ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function stopper(child: ChildProcess): () => Promise<void> {
  return async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
}

/**
 * iipsrv on `root`: its IIIF identifiers are paths under it. Its in-memory tile cache gets the
 * same room as Folia's (MAX_IMAGE_CACHE_SIZE, MB); JPEG quality stays at its default (75).
 */
export async function startIipsrv(root: string, cacheMb: number): Promise<PeerServer> {
  const port = await freePort();
  const child = spawn(IIPSRV, ['--bind', `127.0.0.1:${port}`], {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      FILESYSTEM_PREFIX: `${root}/`,
      URI_MAP: 'iiif=>IIIF',
      MAX_IMAGE_CACHE_SIZE: String(cacheMb),
      CORS: '*',
    },
    stdio: 'ignore',
  });
  await listening(port, child, 'iipsrv');
  return { port, stop: stopper(child) };
}

/** nginx in the foreground, serving `root` with sendfile and keep-alive, its files in `work`. */
export async function startNginx(root: string, work: string): Promise<PeerServer> {
  const port = await freePort();
  fs.mkdirSync(path.join(work, 'nginx-temp'), { recursive: true });
  const conf = path.join(work, 'nginx.conf');
  fs.writeFileSync(
    conf,
    // As root, nginx's worker would run as nobody, who cannot read the private temp dir.
    `${process.getuid?.() === 0 ? 'user root;\n' : ''}worker_processes 1;
daemon off;
pid ${path.join(work, 'nginx.pid')};
error_log ${path.join(work, 'nginx-error.log')};
events { worker_connections 64; }
http {
  access_log off;
  sendfile on;
  tcp_nodelay on;
  keepalive_requests 1000000;
  client_body_temp_path ${path.join(work, 'nginx-temp')};
  proxy_temp_path ${path.join(work, 'nginx-temp')};
  fastcgi_temp_path ${path.join(work, 'nginx-temp')};
  uwsgi_temp_path ${path.join(work, 'nginx-temp')};
  scgi_temp_path ${path.join(work, 'nginx-temp')};
  types { image/jpeg jpg; }
  server {
    listen 127.0.0.1:${port};
    root ${root};
  }
}
`,
  );
  const child = spawn(NGINX, ['-c', conf, '-p', work], { stdio: 'ignore' });
  await listening(port, child, 'nginx');
  return { port, stop: stopper(child) };
}

/** bareNodeServer.ts on `root`, with the same Node and loader Folia's server process runs on. */
export async function startBareNode(root: string): Promise<PeerServer> {
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'bareNodeServer.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', script, root], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const found = /listening (\d+)/.exec(output);
      if (found) resolve(Number(found[1]));
    });
    child.once('exit', (code) => reject(new Error(`bare Node server exited (${code})`)));
  });
  return { port, stop: stopper(child) };
}
