/**
 * OCR quality of the Tesseract worker beside bare Tesseract, on the OCR-D ground truth pages
 * that have text (printed German, Fraktur): the worker runs as a task would (its own process,
 * talking over HTTP to a server in its own process) on the imported page images, its lines are
 * read back through the API in the page's order, and their text is compared with the PAGE
 * ground truth in reading order; bare `tesseract PAGE - -l frk` reads the original file. Both
 * texts are normalised the same way (bench/ocrText.ts). Prints CER per page and overall, their
 * ratio, and the time each took. A third column runs bare Tesseract on the page as Folia serves
 * it (the full image through IIIF, from the JPEG-compressed pyramid it stores), which tells
 * what the stored image costs apart from what the worker does.
 */
import { execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { runImport } from '../server/imports/execute';
import { startChildServer } from '../tests/server/childProcess';
import { SHARED_DATA_DIR } from '../tests/server/sharedData';
import { editDistance, groundTruthLines, normalise } from './ocrText';
import { seedUser } from './seed';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DATA = path.join(SHARED_DATA_DIR, 'ocrd-gt_structure_text');
/** Every page of the three books whose ground truth has text (Hilbert's has regions only). */
const PAGES = [
  'bebel_frau_1879/GT-PAGE/bebel_frau_1879_0146',
  'laube_europa0202_1837/GT-PAGE/laube_europa0202_1837_0007',
  'laube_europa0202_1837/GT-PAGE/laube_europa0202_1837_0105',
];

function imageOf(base: string): string {
  const found = ['.jpg', '.tif', '.png']
    .map((ext) => path.join(DATA, `${base}${ext}`))
    .find((file) => fs.existsSync(file));
  if (!found) throw new Error(`no image for ${base}`);
  return found;
}

function bareTesseract(image: string): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(
      'tesseract',
      [image, '-', '-l', 'frk'],
      { maxBuffer: 64 * 1024 * 1024, env: { ...process.env, OMP_THREAD_LIMIT: '1' } },
      (error, stdout) => (error ? reject(error) : resolve(stdout)),
    ),
  );
}

interface Score {
  edits: number;
  length: number;
}

const score = (reference: string, hypothesis: string): Score => {
  const ref = normalise(reference);
  return { edits: editDistance(ref, normalise(hypothesis)), length: [...ref].length };
};
const rate = (s: Score) => (s.length ? s.edits / s.length : 0);
const pct = (value: number) => `${(value * 100).toFixed(2)} %`;

export async function run(): Promise<void> {
  if (!fs.existsSync(DATA)) {
    console.log(`(skipped: the OCR-D ground truth is not at ${DATA})`);
    return;
  }
  try {
    await new Promise<void>((resolve, reject) =>
      execFile('tesseract', ['--version'], (error) => (error ? reject(error) : resolve())),
    );
  } catch {
    console.log('(skipped: tesseract is not installed on this machine)');
    return;
  }
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'folia-bench-ocr-'));
  const config = {
    ...loadConfig({ FOLIA_DATA_DIR: path.join(work, 'data'), FOLIA_LOG: '0' }),
    distDir: path.join(work, 'none'),
  };
  const app = await buildApp(config);
  await app.ready();
  const server = await startChildServer(config);
  try {
    const user = await seedUser(app);
    const { headers } = user;
    const corpus = await app.inject({
      method: 'POST',
      url: '/api/v1/corpus/',
      headers,
      payload: { name: 'OCR-D ground truth' },
    });
    const corpusId = corpus.json().id as string;

    const pageIds: string[] = [];
    for (const base of PAGES) {
      const report = await runImport({ db: app.db, dataDir: config.dataDir }, imageOf(base), {
        corpusId,
        userId: user.id,
        parentId: null,
        folderName: path.basename(base),
      });
      const children = await app.inject({
        url: `/api/v1/elements/${report.folder_id}/children/`,
        headers,
      });
      pageIds.push(children.json().results[0].id as string);
    }

    // A process of the project with one run of the published Tesseract version, as a user
    // would make it, with the default settings.
    const version = await app.db
      .selectFrom('worker_versions')
      .innerJoin('workers', 'workers.id', 'worker_versions.worker_id')
      .select('worker_versions.id')
      .where('workers.slug', '=', 'tesseract')
      .orderBy('worker_versions.created', 'desc')
      .executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    const processId = randomUUID();
    await app.db
      .insertInto('processes')
      .values({
        id: processId,
        corpus_id: corpusId,
        name: 'OCR',
        mode: 'workers',
        state: 'running',
        creator_id: user.id,
        created: now,
        started: now,
        finished: null,
      })
      .execute();
    const runId = randomUUID();
    await app.db
      .insertInto('worker_runs')
      .values({
        id: runId,
        process_id: processId,
        worker_version_id: version.id,
        model_version_id: null,
        configuration_id: null,
        parents: '[]',
        created: now,
      })
      .execute();

    const task = path.join(work, 'task');
    fs.mkdirSync(task);
    const elements = path.join(task, 'elements.json');
    fs.writeFileSync(elements, JSON.stringify(pageIds.map((id) => ({ id, type: 'page' }))));
    const workerStart = performance.now();
    const exit = await new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'workers/tesseract/main.ts'], {
        cwd: root,
        env: {
          ...process.env,
          ARKINDEX_API_URL: `${server.url}/api/v1/`,
          ARKINDEX_API_TOKEN: headers.authorization.replace(/^Token /, ''),
          ARKINDEX_WORKER_RUN_ID: runId,
          ARKINDEX_PROCESS_ID: processId,
          TASK_ELEMENTS: elements,
          PONOS_DATA: task,
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      child.stdout.on('data', (chunk: Buffer) => process.stdout.write(`  worker: ${chunk}`));
      child.once('exit', resolve);
    });
    const workerMs = performance.now() - workerStart;
    if (exit !== 0) throw new Error(`the worker exited with ${exit}`);

    const rows: string[][] = [];
    const workerTotal: Score = { edits: 0, length: 0 };
    const bareTotal: Score = { edits: 0, length: 0 };
    const servedTotal: Score = { edits: 0, length: 0 };
    let bareMs = 0;
    for (const [index, base] of PAGES.entries()) {
      const truth = groundTruthLines(path.join(DATA, `${base}.xml`)).join('\n');
      const pageId = pageIds[index]!;
      // The worker's lines in their order under the page, each with its text.
      const lines = await fetch(
        `${server.url}/api/v1/elements/${pageId}/children/?type=text_line&page_size=500`,
        { headers },
      ).then((response) => response.json() as Promise<{ results: { id: string }[] }>);
      const texts = await fetch(
        `${server.url}/api/v1/element/${pageId}/transcriptions/?recursive=true&worker_run=${runId}&page_size=500`,
        { headers },
      ).then(
        (response) =>
          response.json() as Promise<{ results: { text: string; element: { id: string } }[] }>,
      );
      const byLine = new Map(texts.results.map((item) => [item.element.id, item.text]));
      const workerText = lines.results.map((line) => byLine.get(line.id) ?? '').join('\n');

      const start = performance.now();
      const bareText = await bareTesseract(imageOf(base));
      bareMs += performance.now() - start;
      const page = await fetch(`${server.url}/api/v1/element/${pageId}/`, { headers }).then(
        (response) => response.json() as Promise<{ zone: { image: { url: string } } }>,
      );
      const served = path.join(work, `${path.basename(base)}.served.png`);
      const image = await fetch(`${page.zone.image.url}/full/max/0/default.png`, { headers });
      if (!image.ok) throw new Error(`IIIF answered ${image.status} for ${base}`);
      fs.writeFileSync(served, Buffer.from(await image.arrayBuffer()));
      const servedScore = score(truth, await bareTesseract(served));

      const workerScore = score(truth, workerText);
      const bareScore = score(truth, bareText);
      for (const [total, part] of [
        [workerTotal, workerScore],
        [bareTotal, bareScore],
        [servedTotal, servedScore],
      ] as const) {
        total.edits += part.edits;
        total.length += part.length;
      }
      rows.push([
        path.basename(base),
        String(lines.results.length),
        String(workerScore.length),
        pct(rate(workerScore)),
        pct(rate(bareScore)),
        pct(rate(servedScore)),
      ]);
    }
    rows.push([
      'all pages',
      '',
      String(workerTotal.length),
      pct(rate(workerTotal)),
      pct(rate(bareTotal)),
      pct(rate(servedTotal)),
    ]);
    const header = [
      'page',
      'worker lines',
      'truth chars',
      'CER worker',
      'CER bare tesseract',
      'CER bare on served image',
    ];
    const widths = header.map((title, i) =>
      Math.max(title.length, ...rows.map((r) => r[i]!.length)),
    );
    for (const row of [header, ...rows]) {
      console.log(
        row
          .map((cell, i) => cell.padEnd(widths[i]!))
          .join('  ')
          .trimEnd(),
      );
    }
    const ratio = rate(bareTotal) ? rate(workerTotal) / rate(bareTotal) : NaN;
    console.log(`\nratio CER worker / CER bare tesseract: ${ratio.toFixed(3)}`);
    const servedRatio = rate(servedTotal) ? rate(workerTotal) / rate(servedTotal) : NaN;
    console.log(
      `ratio CER worker / CER bare tesseract on the image as served: ${servedRatio.toFixed(3)}`,
    );
    console.log(
      `time: worker ${(workerMs / 1000).toFixed(1)} s for ${PAGES.length} pages (start, API, IIIF, ` +
        `OCR, storing), bare tesseract ${(bareMs / 1000).toFixed(1)} s`,
    );
  } finally {
    server.process.kill('SIGTERM');
    await server.exited;
    await app.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
}
