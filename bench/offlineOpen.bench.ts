/**
 * Opening an element in Chromium, from the device's store with the network cut against through
 * the API, on the built app (built into FOLIA_DIST_DIR first when missing or older than its
 * sources, as bench/lighthouse.bench.ts does): the server runs as its own process over HTTP and serves the app, whose service worker controls
 * the page, and the element is read by src/offline/elementReads.ts (bundled with Vite's build
 * API, run in the app's page) into the browser's own IndexedDB. Each round reads the element
 * RUNS times online (through the service worker to the API, stored) and RUNS times offline
 * (the context set offline, read from IndexedDB), which side goes first swapping every round;
 * the ratio is the median of the rounds' median ratios. Also the API request alone, a bare
 * fetch of the element from the page.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext } from '@playwright/test';
import { ensureBuild } from '../server/build';
import { loadConfig } from '../server/config';
import { insertCorpus } from '../server/services/corpora';
import { createUser } from '../server/services/users';
import { startChildServer, type ChildServer } from '../tests/server/childProcess';
import { makeThrowawayApp } from '../tests/server/throwawayApp';
import { bundleForPage, CHROMIUM } from './bundle';
import { median, stopBench } from './serverProcess';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = 5;
const RUNS = 50;
const EMAIL = 'open-bench@example.com';
const PASSWORD = 'reading room 1789 bench';

const ENTRY = `
import { api } from '@/api/client';
import { localDb } from '@/offline/db';
import { readElement } from '@/offline/elementReads';
export { api, localDb, readElement };
`;

/** What the page functions touch, typed here (the benchmarks compile without the DOM library). */
interface OpenModule {
  api<T>(path: string, options?: { method?: 'POST'; body?: unknown }): Promise<T>;
  localDb: unknown;
  readElement(db: unknown, id: string, options: { online: boolean }): Promise<{ id: string }>;
}
interface PageGlobals {
  Open: OpenModule;
  navigator: { serviceWorker: { ready: Promise<unknown>; controller: unknown } };
}

/** Runs in the page: a session as the login form makes it (CSRF cookie first). */
async function pageLogIn(args: { email: string; password: string }): Promise<void> {
  const { Open } = globalThis as unknown as PageGlobals;
  await Open.api('/user/').catch(() => null);
  await Open.api('/user/login/', { method: 'POST', body: args });
}

/** Runs in the page: `runs` bare requests of the element, as the API's share of opening it. */
async function pageFetch(args: { id: string; runs: number }): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < args.runs; i += 1) {
    const t0 = performance.now();
    const response = await fetch(`/api/v1/element/${args.id}/`, { credentials: 'include' });
    await response.text();
    times.push(performance.now() - t0);
  }
  return times;
}

/** Runs in the page: `runs` openings of the element, each timed. */
async function pageOpen(args: { id: string; runs: number; online: boolean }): Promise<number[]> {
  const { Open } = globalThis as unknown as PageGlobals;
  const times: number[] = [];
  for (let i = 0; i < args.runs; i += 1) {
    const t0 = performance.now();
    const element = await Open.readElement(Open.localDb, args.id, { online: args.online });
    times.push(performance.now() - t0);
    if (element.id !== args.id) throw new Error('another element came back');
  }
  return times;
}

export async function run(): Promise<void> {
  const DIST = loadConfig({ ...process.env, FOLIA_LOG: '0' }).distDir;
  ensureBuild(root, DIST, (line) => console.log(line));
  const throwaway = await makeThrowawayApp('sqlite', { label: 'bench' });
  let server: ChildServer | null = null;
  let context: BrowserContext | null = null;
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'folia-bench-open-'));
  try {
    const { app, config } = throwaway;
    const user = await createUser(app.db, {
      email: EMAIL,
      password: PASSWORD,
      displayName: 'Open bench',
      verified: true,
    });
    const corpus = await insertCorpus(
      app.db,
      { name: 'Open bench', description: '', public: false },
      user.id,
    );
    server = await startChildServer({ ...config, distDir: DIST });
    const created = await fetch(`${server.url}/api/v1/elements/create/`, {
      method: 'POST',
      headers: { authorization: `Token ${user.auth_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ corpus: corpus.id, type: 'folder', name: 'Register 1789' }),
    });
    const { id } = (await created.json()) as { id: string };

    context = await chromium.launchPersistentContext(profile, {
      ...CHROMIUM,
      viewport: { width: 1280, height: 800 },
      // The bundle goes in as an inline script, which the app's policy would refuse.
      bypassCSP: true,
    });
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${server.url}/`);
    await page.evaluate(async () => {
      await (globalThis as unknown as PageGlobals).navigator.serviceWorker.ready;
    });
    // A page loaded before its service worker was active is not controlled until reloaded.
    await page.reload();
    const controlled = await page.evaluate(
      () => !!(globalThis as unknown as PageGlobals).navigator.serviceWorker.controller,
    );
    await page.addScriptTag({ content: await bundleForPage(ENTRY, 'Open') });
    await page.evaluate(pageLogIn, { email: EMAIL, password: PASSWORD });
    // Stored once, as opening it online the first time does.
    await page.evaluate(pageOpen, { id, runs: 5, online: true });

    const online: number[] = [];
    const offline: number[] = [];
    const ratios: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const sides = round % 2 === 0 ? [true, false] : [false, true];
      const medians = new Map<boolean, number>();
      for (const side of sides) {
        await context.setOffline(!side);
        const times = await page.evaluate(pageOpen, { id, runs: RUNS, online: side });
        (side ? online : offline).push(...times);
        medians.set(side, median(times));
      }
      ratios.push(medians.get(false)! / medians.get(true)!);
    }
    await context.setOffline(false);
    const bare = await page.evaluate(pageFetch, { id, runs: RUNS });
    console.log(
      `Chromium ${context.browser()?.version() ?? ''}, built app at ${path.relative(root, DIST) || DIST}, ` +
        `page ${controlled ? 'controlled by its service worker' : 'NOT controlled by a service worker'}`,
    );
    console.log(
      `open an element: offline from IndexedDB ${median(offline).toFixed(2)} ms, ` +
        `online through the API ${median(online).toFixed(2)} ms (medians of ${ROUNDS * RUNS}); ` +
        `offline / online ${median(ratios).toFixed(2)}× (median of ${ROUNDS} alternated rounds)`,
    );
    console.log(
      `  the API request alone (a bare fetch through the service worker): ${median(bare).toFixed(2)} ms`,
    );
  } finally {
    await context?.close();
    fs.rmSync(profile, { recursive: true, force: true });
    await stopBench(server, throwaway);
  }
}
