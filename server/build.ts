import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

/** What the PWA build is made from: a change to any of these makes dist/ stale. */
const INPUTS = [
  'src',
  'sw',
  'public',
  'index.html',
  'vite.config.ts',
  'server/precompress.ts',
  'package-lock.json',
  'tsconfig.app.json',
];
const STAMP = '.build-hash';

function walk(entry: string, files: string[]): void {
  const stat = fs.statSync(entry, { throwIfNoEntry: false });
  if (!stat) return;
  if (stat.isDirectory()) {
    for (const name of fs.readdirSync(entry).sort()) walk(path.join(entry, name), files);
  } else {
    files.push(entry);
  }
}

export function sourceHash(root: string): string {
  const files: string[] = [];
  for (const input of INPUTS) walk(path.join(root, input), files);
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(path.relative(root, file));
    hash.update(fs.readFileSync(file));
  }
  return hash.digest('hex');
}

/** Builds the PWA when dist/ is missing or older than its sources; returns whether it built. */
export function ensureBuild(root: string, distDir: string, log: (line: string) => void): boolean {
  const wanted = sourceHash(root);
  const stampFile = path.join(distDir, STAMP);
  const current =
    fs.existsSync(path.join(distDir, 'index.html')) && fs.existsSync(stampFile)
      ? fs.readFileSync(stampFile, 'utf8').trim()
      : null;
  if (current === wanted) return false;
  log(current ? 'The app changed since the last build: building it again…' : 'Building the app…');
  const vite = path.join(root, 'node_modules', '.bin', 'vite');
  const result = spawnSync(vite, ['build', '--outDir', distDir, '--emptyOutDir'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error('The app build failed (see above).');
  fs.writeFileSync(stampFile, wanted);
  return true;
}
