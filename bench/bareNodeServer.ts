/**
 * The least a Node process can do to answer a tile: node:http sending bytes held in memory, no
 * framework, no rights, no cache lookup beyond one Map. Started by iiif.bench.ts as a process
 * of its own, like Folia, on the tiles Folia answered: what is left between Folia and it is
 * Folia's own work; what is left between it and nginx is Node's.
 *
 * Usage: bareNodeServer.ts <root> (prints "listening <port>").
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

const root = process.argv[2]!;
const files = new Map<string, Buffer>();
function load(dir: string): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) load(full);
    else files.set(`/${path.relative(root, full)}`, fs.readFileSync(full));
  }
}
load(root);

const server = http.createServer((request, response) => {
  const body = files.get(decodeURIComponent(request.url ?? ''));
  if (!body) {
    response.writeHead(404, { 'content-length': 0 }).end();
    return;
  }
  response.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': body.length });
  response.end(body);
});
server.listen(0, '127.0.0.1', () => {
  console.log(`listening ${(server.address() as { port: number }).port}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
