/**
 * Benchmarks print figures and ratios measured side by side in one run; they are never
 * assertions. `npm run bench` runs every *.bench.ts here, or the ones named on the command line.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
// Options such as --large are the benchmarks' own; the other words name files.
const wanted = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const files = fs
  .readdirSync(here)
  .filter((name) => name.endsWith('.bench.ts'))
  .filter((name) => wanted.length === 0 || wanted.some((w) => name.includes(w)))
  .sort();

for (const file of files) {
  console.log(`\n## ${file}`);
  const module = (await import(pathToFileURL(path.join(here, file)).href)) as {
    run: () => Promise<void>;
  };
  await module.run();
}
