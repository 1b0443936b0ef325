/** Uploads what a task left under $PONOS_DATA/artifacts/, each file streamed from disk. */
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { AgentApi } from './api';

const TYPES: Record<string, string> = {
  '.json': 'application/json',
  '.txt': 'text/plain',
  '.log': 'text/plain',
  '.csv': 'text/csv',
  '.xml': 'application/xml',
  '.html': 'text/html',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.gz': 'application/gzip',
  '.zst': 'application/zstd',
  '.tar': 'application/x-tar',
  '.sqlite': 'application/vnd.sqlite3',
};

export const contentTypeOf = (file: string): string =>
  TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';

/** Relative paths (with /) of the regular files under dir, sorted. */
export function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const found: string[] = [];
  const walk = (relative: string) => {
    for (const entry of fs.readdirSync(path.join(dir, relative), { withFileTypes: true })) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile()) found.push(child);
    }
  };
  walk('');
  return found.sort();
}

export async function uploadArtifacts(
  api: AgentApi,
  taskId: string,
  dir: string,
  log: (line: string) => void,
  signal?: AbortSignal,
): Promise<void> {
  for (const relative of listFiles(dir)) {
    const file = path.join(dir, relative);
    const encoded = relative.split('/').map(encodeURIComponent).join('/');
    try {
      await api.request(`ponos/task/${taskId}/artifacts/${encoded}`, {
        method: 'PUT',
        body: () => Readable.toWeb(fs.createReadStream(file)) as ReadableStream,
        contentType: contentTypeOf(relative),
        signal,
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      log(`artifact ${relative} not uploaded: ${error instanceof Error ? error.message : error}`);
    }
  }
}
