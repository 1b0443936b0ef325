/**
 * The app as a tablet loads it: Lighthouse's mobile performance audit (simulated slow 4G and a
 * 4× slower CPU) of the login page, a project's page and a page's element page with its lines,
 * served by the real server in its own process over HTTP, the built app precompressed. Also
 * printed: the JavaScript loaded before the first render (gzip), and what compression saves on
 * the main script and a large element list.
 *
 * Debian's Chromium runs headless; every page is audited RUNS times with fresh storage (no
 * service worker yet: a first visit) and the medians are printed. The machine may be shared:
 * figures that look noisy deserve another run.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { ensureBuild } from '../server/build';
import { loadConfig } from '../server/config';
import { startChildServer } from '../tests/server/childProcess';
import { SHARED_DATA_DIR } from '../tests/server/sharedData';
import { CHROMIUM } from './bundle';
import { median } from './serverProcess';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const EMAIL = 'lighthouse@example.com';
const PASSWORD = 'reading room 1789';

interface Audit {
  score: number;
  tbtMs: number;
  lcpMs: number;
  fcpMs: number;
  unusedJsKiB: number;
}

/** The built app's JavaScript fetched before anything renders: the entry and its preloads. */
function eagerJavaScript(distDir: string): { files: number; rawKiB: number; gzipKiB: number } {
  const html = fs.readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const urls = [
    ...html.matchAll(/<script[^>]+type="module"[^>]+src="([^"]+)"/g),
    ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g),
  ].map((match) => match[1]!);
  let raw = 0;
  let gzip = 0;
  for (const url of new Set(urls)) {
    const data = fs.readFileSync(path.join(distDir, url.replace(/^\//, '')));
    raw += data.length;
    gzip += zlib.gzipSync(data, { level: 9 }).length;
  }
  return { files: new Set(urls).size, rawKiB: raw / 1024, gzipKiB: gzip / 1024 };
}

const cli = (args: string[], dataDir: string) =>
  execFileSync(path.join(root, 'node_modules', '.bin', 'tsx'), ['server/cli.ts', ...args], {
    cwd: root,
    env: { ...process.env, FOLIA_DATA_DIR: dataDir, DATABASE_URL: '', FOLIA_LOG: '0' },
    stdio: 'pipe',
  }).toString();

/** Logs in as a browser does (CSRF cookie first); returns the Cookie header of the session. */
async function logIn(base: string): Promise<string> {
  const jar = new Map<string, string>();
  const keep = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = pair!.split('=');
      jar.set(name!.trim(), value.join('='));
    }
  };
  const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  keep(await fetch(`${base}/api/v1/`));
  const response = await fetch(`${base}/api/v1/user/login/`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      cookie: cookie(),
      'x-csrftoken': jar.get('arkindex.csrf') ?? '',
    },
    body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
  });
  if (!response.ok) throw new Error(`login answered ${response.status}: ${await response.text()}`);
  keep(response);
  return cookie();
}

async function api<T>(base: string, url: string, cookie: string): Promise<T> {
  const response = await fetch(`${base}/api/v1/${url}`, { headers: { cookie } });
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
  return (await response.json()) as T;
}

/** Bytes on the wire of one GET, as sent with the given Accept-Encoding. */
async function wireBytes(url: string, cookie: string, acceptEncoding: string): Promise<number> {
  // node's fetch decodes bodies: the raw http module counts what crossed the wire.
  const http = await import('node:http');
  return new Promise((resolve, reject) => {
    const request = http.get(
      url,
      { headers: { cookie, 'accept-encoding': acceptEncoding } },
      (response) => {
        let bytes = 0;
        response.on('data', (chunk: Buffer) => (bytes += chunk.length));
        response.on('end', () => resolve(bytes));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
  });
}

async function audit(url: string, port: number, cookie: string | null): Promise<Audit> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance'],
    ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
  });
  if (!result) throw new Error(`Lighthouse gave nothing for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.message}`);
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  const unused = lhr.audits['unused-javascript']?.details as
    { overallSavingsBytes?: number } | undefined;
  return {
    score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    tbtMs: numeric('total-blocking-time'),
    lcpMs: numeric('largest-contentful-paint'),
    fcpMs: numeric('first-contentful-paint'),
    unusedJsKiB: (unused?.overallSavingsBytes ?? 0) / 1024,
  };
}

export async function run(): Promise<void> {
  const config = loadConfig({ ...process.env, FOLIA_LOG: '0' });
  ensureBuild(root, config.distDir, (line) => console.log(line));
  const eager = eagerJavaScript(config.distDir);
  console.log(
    `eager JavaScript (entry + modulepreload, ${eager.files} files): ${eager.rawKiB.toFixed(0)} KiB raw, ${eager.gzipKiB.toFixed(1)} KiB gzip`,
  );

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folia-bench-lighthouse-'));
  cli(['createuser', '--email', EMAIL, '--password', PASSWORD], dataDir);
  const output = cli(
    [
      'import',
      path.join(SHARED_DATA_DIR, 'lectaurep-bronod'),
      '--corpus',
      'Bronod registers',
      '--owner',
      EMAIL,
    ],
    dataDir,
  );
  const corpusId = /^Project id: ([0-9a-f-]{36})$/m.exec(output)?.[1];
  if (!corpusId) throw new Error(`the import printed no project id:\n${output}`);

  const server = await startChildServer({ ...config, dataDir, databaseUrl: null, logger: false });
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM.executablePath,
    chromeFlags: ['--headless=new', ...CHROMIUM.args],
  });
  try {
    const cookie = await logIn(server.url);
    type Page = { id: string; name: string };
    const pages = await api<{ results: Page[] }>(
      server.url,
      `corpus/${corpusId}/elements/?type=page&page_size=500`,
      cookie,
    );
    const page = pages.results.find((p) => p.name === '0005') ?? pages.results[0];
    if (!page) throw new Error('the import made no page');

    // What compression saves: the main script and the longest element list of the project.
    const html = fs.readFileSync(path.join(config.distDir, 'index.html'), 'utf8');
    const main = /<script[^>]+type="module"[^>]+src="([^"]+)"/.exec(html)?.[1];
    const list = `${server.url}/api/v1/corpus/${corpusId}/elements/?page_size=500`;
    for (const [label, url] of [
      ['main script', `${server.url}${main}`],
      ['element list (500 elements)', list],
    ] as const) {
      const [identity, gzip, br] = [
        await wireBytes(url, cookie, 'identity'),
        await wireBytes(url, cookie, 'gzip'),
        await wireBytes(url, cookie, 'br, gzip'),
      ];
      const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
      console.log(`${label}: raw ${kib(identity)}, gzip ${kib(gzip)}, br ${kib(br)}`);
    }

    const targets = [
      { label: 'login', url: `${server.url}/user/login`, cookie: null },
      { label: 'project', url: `${server.url}/browse/${corpusId}?top_level=true`, cookie },
      {
        label: `element (page ${page.name}, lines)`,
        url: `${server.url}/element/${page.id}`,
        cookie,
      },
    ];
    console.log(`\nLighthouse ${'mobile'} performance, median of ${RUNS} runs:`);
    console.log('page | score | TBT ms | LCP ms | FCP ms | unused JS KiB | scores');
    for (const target of targets) {
      const runs: Audit[] = [];
      for (let i = 0; i < RUNS; i += 1)
        runs.push(await audit(target.url, chrome.port, target.cookie));
      const m = (pick: (a: Audit) => number) => median(runs.map(pick));
      console.log(
        [
          target.label,
          m((a) => a.score),
          m((a) => a.tbtMs).toFixed(0),
          m((a) => a.lcpMs).toFixed(0),
          m((a) => a.fcpMs).toFixed(0),
          m((a) => a.unusedJsKiB).toFixed(0),
          runs.map((a) => a.score).join(' '),
        ].join(' | '),
      );
    }
  } finally {
    chrome.kill();
    server.process.kill('SIGTERM');
    await server.exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
