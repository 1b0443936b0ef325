/**
 * The Tesseract worker as a process of a project runs it: a user makes a workers process over a
 * page through the API, adds the published Tesseract version and starts it; an agent (its own
 * process, with the farm's token) claims the task and runs the worker with a task token. The
 * process completes, the task log tells what the worker did, and the page has its lines.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImport } from '../../../server/imports/execute';
import { startChildServer, type ChildServer } from '../../server/childProcess';
import { createTestUser, makeTestApp, type TestApp, type TestUser } from '../../server/harness';
import { SHARED_DATA_DIR, sharedDataAvailable } from '../../server/sharedData';
import { hasTesseract } from './installed';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const PAGE_JPG = path.join(
  SHARED_DATA_DIR,
  'ocrd-gt_structure_text/laube_europa0202_1837/GT-PAGE/laube_europa0202_1837_0007.jpg',
);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!sharedDataAvailable() || !hasTesseract)('the Tesseract worker as a task', () => {
  let t: TestApp;
  let server: ChildServer;
  let owner: TestUser;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'folia-tesseract-task-'));

  async function call(method: string, url: string, body?: unknown) {
    const response = await fetch(`${server.url}/api/v1/${url}`, {
      method,
      headers: {
        authorization: `Token ${owner.token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, text, json: () => JSON.parse(text) };
  }

  beforeAll(async () => {
    t = await makeTestApp('sqlite');
    await t.app.ready();
    owner = await createTestUser(t.app);
    server = await startChildServer(t.config);
  });

  afterAll(async () => {
    if (server) {
      server.process.kill('SIGTERM');
      await server.exited;
    }
    await t?.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('runs on an agent with a task token and stores the lines of the page', async () => {
    const corpus = await call('POST', 'corpus/', { name: 'Das junge Europa' });
    expect(corpus.status, corpus.text).toBe(201);
    const corpusId = corpus.json().id as string;
    const report = await runImport({ db: t.app.db, dataDir: t.config.dataDir }, PAGE_JPG, {
      corpusId,
      userId: owner.id,
      parentId: null,
      folderName: 'Title page',
    });
    const children = await call('GET', `elements/${report.folder_id}/children/`);
    const pageId = children.json().results[0].id as string;

    const workers = await call('GET', 'workers/?page_size=100');
    const tesseract = (workers.json().results as { id: string; slug: string }[]).find(
      (worker) => worker.slug === 'tesseract',
    );
    const versions = await call('GET', `workers/${tesseract!.id}/versions/`);
    const versionId = versions.json().results[0].id as string;

    const made = await call('POST', 'process/corpus/', { corpus: corpusId, element: pageId });
    expect(made.status, made.text).toBe(201);
    const processId = made.json().id as string;
    const run = await call('POST', `process/${processId}/workers/`, {
      worker_version_id: versionId,
      parents: [],
    });
    expect(run.status, run.text).toBe(201);
    const started = await call('POST', `process/${processId}/start/`, {});
    expect(started.status, started.text).toBe(201);

    const farm = await t.app.db
      .selectFrom('farms')
      .select('token')
      .where('name', '=', 'Default farm')
      .executeTakeFirstOrThrow();
    const agent = spawn(
      process.execPath,
      ['--import', 'tsx', 'agent/main.ts', '--url', server.url, '--work-dir', work],
      {
        cwd: root,
        env: { ...process.env, FOLIA_FARM_TOKEN: farm.token, FOLIA_AGENT_HEARTBEAT_S: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let agentOutput = '';
    agent.stdout.on('data', (chunk: Buffer) => (agentOutput += chunk.toString()));
    agent.stderr.on('data', (chunk: Buffer) => (agentOutput += chunk.toString()));
    const agentExited = new Promise<void>((resolve) => agent.once('exit', () => resolve()));
    try {
      let state = '';
      for (let waited = 0; waited < 90_000; waited += 500) {
        state = (await call('GET', `process/${processId}/`)).json().state as string;
        if (['completed', 'failed', 'error'].includes(state)) break;
        await sleep(500);
      }
      expect(state, agentOutput).toBe('completed');
    } finally {
      agent.kill('SIGTERM');
      await agentExited;
    }

    const detail = (await call('GET', `process/${processId}/`)).json();
    const [task] = detail.tasks as { id: string; slug: string }[];
    expect(task!.slug).toBe('tesseract');
    // Logs are sent about once a second: the last batch may follow the final state.
    let logs = '';
    for (let waited = 0; waited < 10_000 && !logs.includes('processed'); waited += 250) {
      logs = (await call('GET', `task/${task!.id}/logs/`)).text;
      await sleep(250);
    }
    expect(logs).toContain('1 of 1 element(s) processed, 0 failed');

    const lines = await call('GET', `elements/${pageId}/children/?type=text_line`);
    expect(lines.json().count).toBeGreaterThan(3);
    const stats = await call('GET', `process/${processId}/activity-stats/`);
    expect(stats.json()).toEqual({ queued: 0, started: 0, processed: 1, error: 0 });
  }, 150_000);
});
