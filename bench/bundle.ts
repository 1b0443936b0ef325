/**
 * The app's own modules bundled for a benchmark page: Vite's build API turns an entry source
 * (imports from '@/…' and their re-export) into one IIFE that sets `globalName` on the page.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');

export async function bundleForPage(entrySource: string, globalName: string): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `folia-bench-${globalName.toLowerCase()}-`));
  const entry = path.join(dir, 'entry.ts');
  fs.writeFileSync(entry, entrySource);
  try {
    const result = await build({
      configFile: false,
      logLevel: 'silent',
      root: dir,
      resolve: { alias: { '@': src } },
      // Library builds leave process.env alone, and React reads it when it loads.
      define: { 'process.env.NODE_ENV': JSON.stringify('production') },
      build: {
        write: false,
        minify: true,
        lib: { entry, formats: ['iife'], name: globalName, fileName: globalName.toLowerCase() },
      },
    });
    const outputs = Array.isArray(result) ? result : [result];
    for (const output of outputs) {
      if (!('output' in output)) continue;
      const chunk = output.output.find((item) => item.type === 'chunk');
      if (chunk && chunk.type === 'chunk') return chunk.code;
    }
    throw new Error('Vite produced no bundle');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Debian's Chromium as this machine runs it (Playwright cannot download its own here). */
export const CHROMIUM = {
  executablePath: '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
};

/**
 * tsx compiles the benchmarks keeping function names through a `__name` helper, which the
 * functions handed to page.evaluate bring along: a bench page defines it before anything else.
 */
export const KEEP_NAMES_SCRIPT = '<script>window.__name = (target) => target;</script>';
