/**
 * The offline layer in Chromium, on the server's own origin, against the server running as its
 * own process over HTTP: the outbox in the browser's IndexedDB, requests through the page's
 * fetch (outboxPage.ts is the page's side, bundled with the app's offline modules).
 * - appending an edit to the outbox;
 * - replaying queued edits through the SyncEngine against the same requests sent directly, the
 *   way a good client would send them: at most CONCURRENCY in flight on both sides, and in order
 *   only where order matters to the server. Two cases, each side 1,000 requests:
 *   - creations under one folder: a folder's children keep the order they were made in, so each
 *     waits for the previous one's answer on both sides;
 *   - renames of 1,000 elements: independent, CONCURRENCY in flight on both sides.
 *   Sides alternate (which goes first swaps every pair); the figures are medians over PAIRS.
 *   Also the engine's own work: the same replays answered at once by a fetch in the page;
 * - a 50,000-element write into the local store (opening an element offline against online is
 *   measured by offlineOpen.bench.ts).
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from '@playwright/test';
import { startChildServer, type ChildServer } from '../tests/server/childProcess';
import { makeThrowawayApp } from '../tests/server/throwawayApp';
import { bundleForPage, CHROMIUM } from './bundle';
import { cpuSeconds } from './cpuTime';
import { printTable } from './measure';
import type * as OutboxPage from './outboxPage';
import { seedProject, seedUser } from './seed';
import { median, stopBench } from './serverProcess';

const EDITS = 1000;
const BULK = 50_000;
const PAIRS = Math.max(1, Number(process.env.OUTBOX_BENCH_PAIRS ?? 5));
const GOAL = 1.2;
const CORES = os.cpus().length;

const pageModule = path.join(path.dirname(fileURLToPath(import.meta.url)), 'outboxPage.ts');

interface Pair {
  engine: number;
  direct: number;
}

/** CPU seconds each side used, the server's process and Chromium's apart. */
interface Cpu {
  server: number;
  browser: number;
}

interface CpuPair {
  engine: Cpu;
  direct: Cpu;
}

function cpuNote(pairs: Pair[], cpu: CpuPair[]): string {
  if (cpu.length === 0) return '';
  const side = (name: 'engine' | 'direct') => {
    const server = median(cpu.map((c) => c[name].server));
    const browser = median(cpu.map((c) => c[name].browser));
    const wall = median(pairs.map((p) => p[name])) / 1000;
    return (
      `${name}: server ${server.toFixed(1)} s + Chromium ${browser.toFixed(1)} s of CPU in ` +
      `${wall.toFixed(1)} s (${(((server + browser) / wall / CORES) * 100).toFixed(0)}% of ` +
      `${CORES} cores)`
    );
  };
  return `\n    CPU, medians: ${side('engine')}; ${side('direct')}`;
}

function report(label: string, pairs: Pair[], cpu: CpuPair[]): void {
  const ratio = median(pairs.map((pair) => pair.engine / pair.direct));
  console.log(
    `${label}: engine ${median(pairs.map((p) => p.engine)).toFixed(0)} ms, ` +
      `direct ${median(pairs.map((p) => p.direct)).toFixed(0)} ms, ratio ${ratio.toFixed(2)}× ` +
      `(median of ${pairs.length} alternated pairs: ` +
      `${pairs.map((p) => (p.engine / p.direct).toFixed(2)).join(', ')}; goal ≤ ${GOAL}×: ` +
      `${ratio <= GOAL ? 'met' : `${(ratio / GOAL).toFixed(2)}× over`})` +
      cpuNote(pairs, cpu),
  );
}

type Bench = typeof OutboxPage;

/** Calls one of the page module's functions in the page. */
function inPage<K extends keyof Bench>(
  page: Page,
  name: K,
  ...args: Parameters<Bench[K]>
): Promise<Awaited<ReturnType<Bench[K]>>> {
  return page.evaluate(
    ([fn, rest]) => {
      type Call = (...values: unknown[]) => unknown;
      const bench = (globalThis as unknown as { OutboxBench: Record<string, Call> }).OutboxBench;
      return bench[fn]!(...rest);
    },
    [name, args] as [string, unknown[]],
  ) as Promise<Awaited<ReturnType<Bench[K]>>>;
}

export async function run(): Promise<void> {
  const code = await bundleForPage(`export * from ${JSON.stringify(pageModule)};`, 'OutboxBench');
  const throwaway = await makeThrowawayApp('sqlite', { label: 'bench' });
  let server: ChildServer | null = null;
  const browser = await chromium.launch(CHROMIUM);
  try {
    const { app, config } = throwaway;
    const user = await seedUser(app);
    const corpusId = await seedProject(app, user, 'Outbox bench');
    server = await startChildServer(config);
    const token = user.headers.authorization.replace('Token ', '');
    const page = await browser.newPage();
    // tsx keeps function names through a helper the evaluated functions bring along.
    await page.addInitScript('window.__name = (target) => target;');
    // Any page of the server's origin: IndexedDB and fetch are then the origin's own.
    await page.goto(`${server.url}/api/v1/`);
    await page.addScriptTag({ content: code });
    await inPage(page, 'start', { token, corpusId, edits: EDITS });

    const figures = await inPage(page, 'appends');
    // What a side cost the machine: the server's process tree, and Chromium's (this process's
    // other children; this process itself only waits).
    const serverPid = server.process.pid!;
    const cpuNow = (): Cpu | null => {
      const serverCpu = cpuSeconds(serverPid);
      const browserCpu = cpuSeconds(process.pid, { skipRoot: true, exclude: serverPid });
      return serverCpu === null || browserCpu === null
        ? null
        : { server: serverCpu, browser: browserCpu };
    };
    const withCpu = async <T>(fn: () => Promise<T>): Promise<[T, Cpu | null]> => {
      const before = cpuNow();
      const value = await fn();
      const after = cpuNow();
      const used =
        before && after
          ? { server: after.server - before.server, browser: after.browser - before.browser }
          : null;
      return [value, used];
    };
    const creations: Pair[] = [];
    const renames: Pair[] = [];
    const creationsCpu: CpuPair[] = [];
    const renamesCpu: CpuPair[] = [];
    for (let pair = 0; pair < PAIRS; pair += 1) {
      const order =
        pair % 2 === 0 ? (['engine', 'direct'] as const) : (['direct', 'engine'] as const);
      const made = { engine: 0, direct: 0 };
      const madeCpu: Partial<Record<'engine' | 'direct', Cpu | null>> = {};
      let directMade: OutboxPage.Sent[] = [];
      let temp: string[] = [];
      for (const side of order) {
        if (side === 'engine') {
          // Queued before the clock starts: what is timed is the replay alone.
          temp = await inPage(page, 'queueCreations', pair);
          [made.engine, madeCpu.engine] = await withCpu(() => inPage(page, 'replay'));
        } else {
          let sent: { ms: number; sent: OutboxPage.Sent[] };
          [sent, madeCpu.direct] = await withCpu(() => inPage(page, 'directCreations', pair));
          made.direct = sent.ms;
          directMade = sent.sent;
        }
      }
      creations.push(made);
      if (madeCpu.engine && madeCpu.direct) {
        creationsCpu.push({ engine: madeCpu.engine, direct: madeCpu.direct });
      }
      const engineIds = await inPage(page, 'serverIds', temp);
      const times = { engine: 0, direct: 0 };
      const renamed: Partial<Record<'engine' | 'direct', Cpu | null>> = {};
      for (const side of order) {
        if (side === 'engine') {
          await inPage(page, 'queueRenames', pair, engineIds);
          [times.engine, renamed.engine] = await withCpu(() => inPage(page, 'replay'));
        } else {
          [times.direct, renamed.direct] = await withCpu(() =>
            inPage(page, 'directRenames', pair, directMade),
          );
        }
      }
      renames.push(times);
      if (renamed.engine && renamed.direct) {
        renamesCpu.push({ engine: renamed.engine, direct: renamed.direct });
      }
    }
    const alone = await inPage(page, 'engineAlone');
    const bulkMs = await inPage(page, 'bulkWrite', BULK);
    await inPage(page, 'finish');

    console.log("Chromium's IndexedDB, on the server's origin:");
    printTable(figures);
    console.log(`replay against the same requests sent directly, 4 in flight at most:`);
    report(`  ${EDITS} creations under one folder (in order)`, creations, creationsCpu);
    report(`  ${EDITS} renames of distinct elements`, renames, renamesCpu);
    console.log(
      `  the engine's own work, answers made up in the page (no server): ${EDITS} creations ` +
        `${alone.creations.toFixed(0)} ms, ${EDITS} renames ${alone.renames.toFixed(0)} ms`,
    );
    // Where the distance comes from: each edit replayed is two read-write transactions (claimed
    // as sending, then its answer stored and the entry removed at once: what exactly-once rests
    // on), and the goal leaves them a fifth of the request's own time.
    for (const [label, pairs, own] of [
      ['creation', creations, alone.creations],
      ['rename', renames, alone.renames],
    ] as const) {
      const direct = median(pairs.map((p) => p.direct)) / EDITS;
      console.log(
        `  per ${label}: the request sent directly ${direct.toFixed(2)} ms; the goal leaves the ` +
          `engine ${(direct * (GOAL - 1)).toFixed(2)} ms of its own, and its two IndexedDB ` +
          `transactions take ${(own / EDITS).toFixed(2)} ms with no server`,
      );
    }
    console.log(
      `bulk write of ${BULK} elements in one transaction: ${bulkMs.toFixed(0)} ms ` +
        `(${((BULK / bulkMs) * 1000).toFixed(0)} elements/s)`,
    );
    console.log(
      'opening an element offline against online: see offlineOpen.bench.ts (Chromium, the built app)',
    );
    console.log('offline pack of 20 pages: see packs.bench.ts (it needs Chromium)');
  } finally {
    await browser.close();
    await stopBench(server, throwaway);
  }
}
