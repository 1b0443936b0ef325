/**
 * The Tesseract worker as a real program against a real server (tests/server/childServer.ts),
 * authenticated as a script would be (ARKINDEX_API_TOKEN), on pages imported from the OCR-D
 * ground truth (printed German Fraktur): what it stores is read back through the API and its
 * text compared with the ground truth's.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImport } from '../../../server/imports/execute';
import { cer, groundTruthLines, normalise } from '../../../bench/ocrText';
import { startChildServer, type ChildServer } from '../../server/childProcess';
import {
  Client,
  createTestUser,
  makeTestApp,
  type TestApp,
  type TestUser,
} from '../../server/harness';
import { SHARED_DATA_DIR, sharedDataAvailable } from '../../server/sharedData';
import { hasTesseract } from './installed';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const BOOK = path.join(SHARED_DATA_DIR, 'ocrd-gt_structure_text/laube_europa0202_1837/GT-PAGE');
const PAGE_XML = path.join(BOOK, 'laube_europa0202_1837_0105.xml');
const PAGE_JPG = path.join(BOOK, 'laube_europa0202_1837_0105.jpg');
const SYSTEM_TESSDATA = '/usr/share/tesseract-ocr/5/tessdata';
const NOT_INSTALLED =
  'tesseract is not installed on this machine: apt-get install tesseract-ocr tesseract-ocr-frk tesseract-ocr-deu tesseract-ocr-fra';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

interface Line {
  id: string;
  name: string;
  type: string;
  worker_run: { id: string } | null;
  zone: { polygon: [number, number][] } | null;
}

describe.skipIf(!sharedDataAvailable() || !hasTesseract)('the Tesseract worker', () => {
  let t: TestApp;
  let server: ChildServer;
  let owner: TestUser;
  let client: Client;
  let corpusId: string;
  let versionId: string;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'folia-tesseract-test-'));

  /** The worker as an agent runs it, with `env` over the contract's variables. */
  function runWorker(runId: string, elementIds: string[], env: Record<string, string> = {}) {
    const folder = fs.mkdtempSync(path.join(scratch, 'task-'));
    const elements = path.join(folder, 'elements.json');
    fs.writeFileSync(elements, JSON.stringify(elementIds.map((id) => ({ id, type: 'page' }))));
    const { ARKINDEX_TASK_TOKEN: _ignored, ...inherited } = process.env;
    const child = spawn(process.execPath, ['--import', 'tsx', 'workers/tesseract/main.ts'], {
      cwd: root,
      env: {
        ...inherited,
        ARKINDEX_API_URL: `${server.url}/api/v1/`,
        ARKINDEX_API_TOKEN: owner.token,
        ARKINDEX_WORKER_RUN_ID: runId,
        TASK_ELEMENTS: elements,
        PONOS_DATA: folder,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    return new Promise<Run>((resolve) =>
      child.once('exit', (code) => resolve({ code, stdout, stderr })),
    );
  }

  /** A page imported from `source` (an image, or a PAGE file with its lines and text). */
  async function importPage(source: string, folderName: string): Promise<string> {
    const report = await runImport({ db: t.app.db, dataDir: t.config.dataDir }, source, {
      corpusId,
      userId: owner.id,
      parentId: null,
      folderName,
    });
    const folder = await client.get(`elements/${report.folder_id}/children/`);
    expect(folder.statusCode, folder.body).toBe(200);
    const [page] = folder.json().results as Line[];
    expect(page).toMatchObject({ type: 'page' });
    return page!.id;
  }

  /** A process of the project with one run of the published Tesseract version. */
  async function makeRun(
    options: { configuration?: Record<string, unknown>; modelVersionId?: string } = {},
  ): Promise<string> {
    const { db } = t.app;
    const now = new Date().toISOString();
    const processId = randomUUID();
    await db
      .insertInto('processes')
      .values({
        id: processId,
        corpus_id: corpusId,
        name: 'OCR',
        mode: 'workers',
        state: 'running',
        creator_id: owner.id,
        created: now,
        started: now,
        finished: null,
      })
      .execute();
    let configurationId: string | null = null;
    if (options.configuration) {
      configurationId = randomUUID();
      const worker = await db
        .selectFrom('worker_versions')
        .select('worker_id')
        .where('id', '=', versionId)
        .executeTakeFirstOrThrow();
      await db
        .insertInto('worker_configurations')
        .values({
          id: configurationId,
          worker_id: worker.worker_id,
          name: `Configuration ${configurationId.slice(0, 8)}`,
          configuration: JSON.stringify(options.configuration),
          archived: 0,
        })
        .execute();
    }
    const id = randomUUID();
    await db
      .insertInto('worker_runs')
      .values({
        id,
        process_id: processId,
        worker_version_id: versionId,
        model_version_id: options.modelVersionId ?? null,
        configuration_id: configurationId,
        parents: '[]',
        created: now,
      })
      .execute();
    return id;
  }

  async function linesOf(pageId: string): Promise<Line[]> {
    const response = await client.get(
      `elements/${pageId}/children/?type=text_line&recursive=true&page_size=500`,
    );
    expect(response.statusCode, response.body).toBe(200);
    return response.json().results;
  }

  /** The worker run's transcriptions under the page, by element id. */
  async function textsOf(pageId: string, runId: string): Promise<Map<string, string>> {
    const response = await client.get(
      `element/${pageId}/transcriptions/?recursive=true&worker_run=${runId}&page_size=500`,
    );
    expect(response.statusCode, response.body).toBe(200);
    const results = response.json().results as { text: string; element: { id: string } }[];
    return new Map(results.map((item) => [item.element.id, item.text]));
  }

  async function activity(runId: string, elementId: string): Promise<string | undefined> {
    const row = await t.app.db
      .selectFrom('worker_activities')
      .select('state')
      .where('worker_run_id', '=', runId)
      .where('element_id', '=', elementId)
      .executeTakeFirst();
    return row?.state;
  }

  const truth = () => groundTruthLines(PAGE_XML).join('\n');

  beforeAll(async () => {
    t = await makeTestApp('sqlite');
    await t.app.ready();
    owner = await createTestUser(t.app);
    client = new Client(t.app, owner.token);
    const corpus = await client.post('corpus/', { name: 'Das junge Europa' });
    expect(corpus.statusCode).toBe(201);
    corpusId = corpus.json().id;
    const version = await t.app.db
      .selectFrom('worker_versions')
      .innerJoin('workers', 'workers.id', 'worker_versions.worker_id')
      .select('worker_versions.id')
      .where('workers.slug', '=', 'tesseract')
      .executeTakeFirstOrThrow();
    versionId = version.id;
    server = await startChildServer(t.config);
  });

  afterAll(async () => {
    if (server) {
      server.process.kill('SIGTERM');
      await server.exited;
    }
    await t?.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('creates the lines of a page with their text and its worker run; a rerun skips the page', async () => {
    const pageId = await importPage(PAGE_JPG, 'Scan');
    const runId = await makeRun();
    const first = await runWorker(runId, [pageId]);
    expect(first.code, first.stderr + first.stdout).toBe(0);
    expect(first.stdout).toContain('1 of 1 element(s) processed, 0 failed');

    const lines = await linesOf(pageId);
    expect(lines.length).toBeGreaterThan(15);
    for (const line of lines) {
      expect(line.worker_run?.id).toBe(runId);
      expect(line.zone?.polygon.length).toBe(5);
    }
    const texts = await textsOf(pageId, runId);
    expect(texts.size).toBe(lines.length);
    const read = lines.map((line) => texts.get(line.id)).join('\n');
    // Fraktur read by Tesseract's frk model: most characters right, in the page's order.
    expect(cer(truth(), read)).toBeLessThan(0.2);
    expect(await activity(runId, pageId)).toBe('processed');

    const again = await runWorker(runId, [pageId]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(`${pageId}: already taken by this worker run, skipped`);
    expect(await linesOf(pageId)).toHaveLength(lines.length);
  }, 120_000);

  it('creates text regions holding the lines when create_regions is set', async () => {
    const pageId = await importPage(PAGE_JPG, 'Scan with regions');
    const runId = await makeRun({ configuration: { create_regions: true, min_confidence: 60 } });
    const result = await runWorker(runId, [pageId]);
    expect(result.code, result.stderr + result.stdout).toBe(0);
    const children = await client.get(`elements/${pageId}/children/`);
    const regions = children.json().results as Line[];
    expect(regions.length).toBeGreaterThan(1);
    for (const region of regions) {
      expect(region).toMatchObject({ type: 'paragraph', worker_run: { id: runId } });
    }
    const lines = await linesOf(pageId);
    expect(lines.length).toBeGreaterThan(10);
    const direct = await client.get(`elements/${pageId}/children/?type=text_line`);
    expect(direct.json().count).toBe(0);
  }, 120_000);

  it('drops the lines below min_confidence', async () => {
    const pageId = await importPage(PAGE_JPG, 'Scan read strictly');
    const runId = await makeRun({ configuration: { min_confidence: 100 } });
    const result = await runWorker(runId, [pageId]);
    expect(result.code, result.stderr + result.stdout).toBe(0);
    expect(result.stdout).toContain(`${pageId}: 0 line(s)`);
    expect(await linesOf(pageId)).toEqual([]);
    expect(await activity(runId, pageId)).toBe('processed');
  }, 120_000);

  it('transcribes the existing lines of a page when create_lines is off', async () => {
    const pageId = await importPage(PAGE_XML, 'Ground truth');
    const lines = await linesOf(pageId);
    expect(lines.length).toBe(groundTruthLines(PAGE_XML).length);
    const runId = await makeRun({ configuration: { create_lines: false } });
    const result = await runWorker(runId, [pageId]);
    expect(result.code, result.stderr + result.stdout).toBe(0);

    const texts = await textsOf(pageId, runId);
    // No new element: one transcription on each imported line that has ink.
    expect(await linesOf(pageId)).toHaveLength(lines.length);
    expect(texts.size).toBeGreaterThan(lines.length - 3);
    for (const id of texts.keys()) expect(lines.map((line) => line.id)).toContain(id);
    // Each line's text beside the ground truth the import gave it.
    const imported = await client.get(
      `element/${pageId}/transcriptions/?recursive=true&page_size=500`,
    );
    const truthOf = new Map(
      (
        imported.json().results as {
          text: string;
          element: { id: string };
          worker_run: { id: string };
        }[]
      )
        .filter((item) => item.worker_run.id !== runId)
        .map((item) => [item.element.id, item.text]),
    );
    const reference = lines.map((line) => truthOf.get(line.id) ?? '').join('\n');
    expect(normalise(reference)).toHaveLength(normalise(truth()).length);
    const read = lines.map((line) => texts.get(line.id) ?? '').join('\n');
    expect(cer(reference, read)).toBeLessThan(0.15);

    // A process over the lines themselves: each element is a line, read on its own.
    const picked = [lines[3]!, lines[10]!];
    const linesRunId = await makeRun({ configuration: { create_lines: false } });
    const direct = await runWorker(
      linesRunId,
      picked.map((line) => line.id),
    );
    expect(direct.code, direct.stderr + direct.stdout).toBe(0);
    expect(direct.stdout).toContain('2 of 2 element(s) processed, 0 failed');
    const directTexts = await textsOf(pageId, linesRunId);
    expect([...directTexts.keys()].sort()).toEqual(picked.map((line) => line.id).sort());
    for (const line of picked) expect(directTexts.get(line.id)).toBe(texts.get(line.id));
  }, 120_000);

  it("uses the model version's traineddata as its language", async () => {
    // A model archive as a person would upload it: a tar.zst holding one traineddata.
    const folder = fs.mkdtempSync(path.join(scratch, 'model-'));
    fs.copyFileSync(
      path.join(SYSTEM_TESSDATA, 'frk.traineddata'),
      path.join(folder, 'fraktur_laube.traineddata'),
    );
    const archive = path.join(scratch, 'model.tar.zst');
    execFileSync('tar', ['--zstd', '-c', '-f', archive, '-C', folder, 'fraktur_laube.traineddata']);
    const model = await client.post('models/', { name: 'Fraktur (Laube)' });
    expect(model.statusCode, model.body).toBe(201);
    const version = await client.post(`model/${model.json().id}/versions/`, { tag: 'v1' });
    expect(version.statusCode, version.body).toBe(201);
    const uploaded = await client.put(
      `modelversion/${version.json().id}/upload/`,
      fs.readFileSync(archive),
      { 'content-type': 'application/zstd' },
    );
    expect(uploaded.statusCode, uploaded.body).toBe(200);

    const pageId = await importPage(PAGE_JPG, 'Scan for the model');
    const runId = await makeRun({ modelVersionId: version.json().id });
    const result = await runWorker(runId, [pageId]);
    expect(result.code, result.stderr + result.stdout).toBe(0);
    // A language Debian's tessdata does not have: only the downloaded model can give it.
    expect(result.stdout).toContain('Tesseract language fraktur_laube');
    const lines = await linesOf(pageId);
    const texts = await textsOf(pageId, runId);
    expect(cer(truth(), lines.map((line) => texts.get(line.id)).join('\n'))).toBeLessThan(0.2);
  }, 120_000);

  it('reports an element it cannot read as an error and exits non-zero when all failed', async () => {
    const folder = await client.post('elements/create/', {
      corpus: corpusId,
      type: 'folder',
      name: 'No image here',
    });
    expect(folder.statusCode, folder.body).toBe(201);
    const runId = await makeRun();
    const result = await runWorker(runId, [folder.json().id]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('folder No image here has no image to read');
    expect(await activity(runId, folder.json().id)).toBe('error');
  }, 60_000);

  it('says how to install Tesseract when the machine lacks it', async () => {
    const runId = await makeRun();
    const result = await runWorker(runId, [], { PATH: fs.mkdtempSync(path.join(scratch, 'bin-')) });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(NOT_INSTALLED);
  }, 60_000);
});
