/**
 * Export processes run end to end: real PAGE files are imported into a folder, an export
 * process of the folder is made through the API (on an export still running, which the task
 * waits for; then on a new one), a real agent runs the export worker, and the task's artifact is
 * read as a user would download it: the PAGE XML archive's files validate against the schema
 * and hold each page's lines; the CSV has a row per element with its text; the PDF's text layer
 * holds the page's words.
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runImport } from '../../server/imports/execute';
import { recoverAbandonedJobs } from '../../server/jobs/queue';
import { exportFilePath } from '../../server/services/exports/exports';
import { readPageLayout } from '../../server/services/exports/pageLayout';
import { buildSqliteExport } from '../../server/services/exports/sqliteExport';
import { describeEachDialect } from '../server/harness';
import { SHARED_DATA_DIR, sharedDataAvailable } from '../server/sharedData';
import { defaultFarm } from '../server/tasks/fixtures';
import { waitFor, type AgentProcess } from './agentProcess';
import { useAgentSuite } from './setup';

const withShared = sharedDataAvailable();
const FILES = [
  'ocrd-gt_structure_text/laube_europa0202_1837/GT-PAGE/laube_europa0202_1837_0007.xml',
  'lectaurep-bronod/bronod1/page/0001.xml',
];
const SCHEMAS_DIR = path.resolve(SHARED_DATA_DIR, '..', 'schemas');
const PAGE_XSD = path.join(SCHEMAS_DIR, 'page-2019-07-15.xsd');
const ALTO_XSD = path.join(SCHEMAS_DIR, 'alto-4-4.xsd');
const CATALOG = path.join(SCHEMAS_DIR, 'catalog.xml');
const canValidate =
  spawnSync('xmllint', ['--version']).status === 0 &&
  fs.existsSync(PAGE_XSD) &&
  fs.existsSync(CATALOG);
const hasPdftotext = spawnSync('pdftotext', ['-v']).status === 0;

describeEachDialect('Export processes on an agent', ({ t }) => {
  const suite = useAgentSuite(t);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folia-export-process-'));
  let folderId: string;
  let pageIds: string[];
  let exportId: string;

  beforeAll(async () => {
    if (!withShared) return;
    const { app, config } = t();
    const target = { corpusId: suite.corpusId, userId: suite.actors.owner.id };
    const first = await runImport(
      { db: app.db, dataDir: config.dataDir },
      path.join(SHARED_DATA_DIR, FILES[0]!),
      { ...target, parentId: null, folderName: 'Register' },
    );
    folderId = first.folder_id!;
    await runImport(
      { db: app.db, dataDir: config.dataDir },
      path.join(SHARED_DATA_DIR, FILES[1]!),
      {
        ...target,
        parentId: folderId,
        folderName: null,
      },
    );
    const links = await app.db
      .selectFrom('element_links')
      .select('child_id')
      .where('parent_id', '=', folderId)
      .orderBy('position')
      .execute();
    pageIds = links.map((link) => link.child_id);
    expect(pageIds).toHaveLength(2);
  }, 120_000);

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** Makes the process and an agent to run its task; answers the process and task ids. */
  const startExportProcess = async (body: Record<string, unknown>) => {
    const farm = await defaultFarm(t().app);
    const made = await suite.owner.post(`process/export/${suite.corpusId}/`, {
      element_id: folderId,
      farm_id: farm.id,
      ...body,
    });
    expect(made.statusCode, made.body).toBe(201);
    const tasks = made.json().tasks as { id: string }[];
    expect(tasks).toHaveLength(1);
    const agent = suite.agent({ farmToken: farm.token, env: { EXPORT_POLL_MS: '250' } });
    return { processId: made.json().id as string, taskId: tasks[0]!.id, agent };
  };

  const finished = async (taskId: string) => {
    const done = await suite.until(taskId, ['completed', 'failed', 'error'], 120_000);
    const logs = (await suite.owner.get(`task/${taskId}/`)).json().logs as string;
    return { state: done.state, logs };
  };

  /** An export still being built, by a job this test holds (alive, so nothing settles it). */
  const heldExport = async () => {
    const app = t().app;
    const id = randomUUID();
    // Made 7 hours ago, so a new export may start after it.
    const made = new Date(Date.now() - 7 * 3600_000).toISOString();
    const jobId = randomUUID();
    await app.db
      .insertInto('jobs')
      .values({
        id: jobId,
        user_id: null,
        corpus_id: suite.corpusId,
        kind: 'test.hold',
        description: 'Held by the test',
        status: 'started',
        progress: 0,
        payload: '{}',
        result: null,
        error: null,
        stop_requested: 0,
        claimed_by: 'the test',
        enqueued_at: made,
        started_at: made,
        ended_at: null,
      })
      .execute();
    // The test plays the job's runner, alive throughout: without a heartbeat the server's
    // recovery would end the job as abandoned at its next pass, and the export with it.
    const alive = new Date(Date.now() + 3600_000).toISOString();
    await sql`update jobs set heartbeat_at = ${alive} where id = ${jobId}`.execute(app.db);
    await app.db
      .insertInto('corpus_exports')
      .values({
        id,
        corpus_id: suite.corpusId,
        user_id: suite.actors.owner.id,
        state: 'running',
        source: 'default',
        job_id: jobId,
        error: null,
        size: null,
        created: made,
        updated: made,
      })
      .execute();
    return id;
  };

  /** Until the task says it waits for the export; else fails with what its agent printed. */
  const waiting = async (taskId: string, agent: AgentProcess) => {
    try {
      await waitFor(
        'the task to wait for the export',
        async () => {
          const task = await t()
            .app.db.selectFrom('tasks')
            .select(['logs', 'state'])
            .where('id', '=', taskId)
            .executeTakeFirstOrThrow();
          if (['failed', 'error', 'completed'].includes(task.state)) {
            throw new Error(`the task ended ${task.state} before waiting:\n${task.logs}`);
          }
          return task.logs.includes('Waiting for the SQLite export') ? true : undefined;
        },
        60_000,
      );
    } catch (error) {
      throw new Error(`${(error as Error).message}; the agent printed:\n${agent.output()}`);
    }
  };

  /** Makes the process, runs its task on an agent and answers the task's artifact. */
  const runExport = async (
    body: Record<string, unknown>,
    artifact: string,
    meanwhile?: (taskId: string, agent: AgentProcess) => Promise<void>,
  ) => {
    const { processId, taskId, agent } = await startExportProcess(body);
    await meanwhile?.(taskId, agent);
    const { state, logs } = await finished(taskId);
    expect(state, logs).toBe('completed');
    const process = await suite.owner.get(`process/${processId}/`);
    expect(process.json().state).toBe('completed');
    const listed = await suite.owner.get(`task/${taskId}/artifacts/`);
    expect(listed.json().map((a: { path: string }) => a.path)).toEqual([artifact]);
    const file = await suite.owner.get(`task/${taskId}/artifact/${artifact}`);
    expect(file.statusCode).toBe(200);
    const runs = await suite.owner.get(`process/${processId}/workers/`);
    const configuration = runs.json().results[0].configuration.configuration;
    return { bytes: file.rawPayload, logs, exportId: configuration.export_id as string };
  };

  it.runIf(withShared)(
    'a PAGE XML export of a folder waits for its SQLite export, then writes one valid file per page with its lines',
    async () => {
      const { app, config } = t();
      exportId = await heldExport();
      const result = await runExport(
        { format: 'pagexml', export_id: exportId },
        'pagexml.zip',
        async (taskId, agent) => {
          await waiting(taskId, agent);
          const file = exportFilePath(config.dataDir, exportId);
          fs.mkdirSync(path.dirname(file), { recursive: true });
          await buildSqliteExport({ db: app.db, dialect: app.dialect }, suite.corpusId, file, {
            origin: suite.url,
          });
          await app.db
            .updateTable('corpus_exports')
            .set({ state: 'done', updated: new Date().toISOString() })
            .where('id', '=', exportId)
            .execute();
        },
      );
      expect(result.logs).toContain(`Waiting for the SQLite export ${exportId} (running)`);
      expect(result.logs).not.toContain('element types could not be read');

      const files = unzipSync(new Uint8Array(result.bytes));
      const names = await app.db
        .selectFrom('elements')
        .select(['id', 'name'])
        .where('id', 'in', pageIds)
        .execute();
      const nameOf = new Map(names.map((row) => [row.id, row.name]));
      expect(Object.keys(files)).toEqual(pageIds.map((id) => `${nameOf.get(id)}.xml`));
      for (const id of pageIds) {
        const xml = new TextDecoder().decode(files[`${nameOf.get(id)}.xml`]);
        const layout = await readPageLayout(app.db, id);
        const lines = layout.regions.flatMap((region) => region.lines);
        expect(lines.length).toBeGreaterThan(0);
        for (const line of lines) expect(xml).toContain(line.id);
        expect(xml).toContain('<TextLine');
        if (canValidate) {
          const written = path.join(dir, `${id}.xml`);
          fs.writeFileSync(written, xml);
          const check = spawnSync(
            'xmllint',
            ['--nonet', '--noout', '--schema', PAGE_XSD, written],
            {
              env: { ...process.env, XML_CATALOG_FILES: CATALOG },
              encoding: 'utf8',
            },
          );
          expect(check.status, check.stderr).toBe(0);
        }
      }
    },
    180_000,
  );
  it.runIf(withShared)(
    'a CSV export of the folder with chosen columns, from a new SQLite export',
    async () => {
      expect(exportId).toBeDefined();
      const result = await runExport(
        {
          format: 'csv',
          export_id: null,
          configuration: { fields: ['id', 'name', 'type', 'page_id', 'text'] },
        },
        'export.csv',
      );
      // A new SQLite export was made for it, and is the one the PDF below reads.
      expect(result.exportId).not.toBe(exportId);
      exportId = result.exportId;
      const text = result.bytes.toString('utf8');
      const rows = text.split('\r\n');
      expect(rows[0]).toBe('id,name,type,page_id,text');
      const db = t().app.db;
      const elements = await db
        .selectFrom('elements')
        .select('id')
        .where('corpus_id', '=', suite.corpusId)
        .execute();
      // The folder, its pages and everything on them: every element of the import.
      expect(rows.filter((row) => row !== '').length - 1).toBe(elements.length);
      expect(rows[1]!.startsWith(`${folderId},Register,folder,,`)).toBe(true);
      const layout = await readPageLayout(db, pageIds[0]!);
      const line = layout.regions.flatMap((region) => region.lines).find((each) => each.text)!;
      expect(text).toContain(line.id);
      expect(rows.find((row) => row.startsWith(line.id))).toContain(pageIds[0]);
    },
    180_000,
  );

  it.runIf(withShared && hasPdftotext)(
    'a PDF export of a page: pdftotext finds its lines’ texts',
    async () => {
      const result = await runExport(
        { format: 'pdf', export_id: exportId, element_id: pageIds[1] },
        'export.pdf',
      );
      const pdf = path.join(dir, 'export.pdf');
      fs.writeFileSync(pdf, result.bytes);
      const extracted = spawnSync('pdftotext', ['-enc', 'UTF-8', pdf, '-'], { encoding: 'utf8' });
      expect(extracted.status, extracted.stderr).toBe(0);
      const layout = await readPageLayout(t().app.db, pageIds[1]!);
      const words = layout.regions
        .flatMap((region) => region.lines)
        .flatMap((line) => (line.text ?? '').split(/\s+/))
        .filter((word) => /^\p{L}{4,}$/u.test(word));
      expect(words.length).toBeGreaterThan(5);
      const found = extracted.stdout.replace(/\s+/g, ' ');
      for (const word of words.slice(0, 20)) expect(found).toContain(word);
      expect(result.logs).not.toContain('could not be read');
      expect(result.logs).not.toContain('there is no image');
    },
    180_000,
  );

  it.runIf(withShared)(
    'a DOCX export of the folder: a heading per page, then its lines',
    async () => {
      const result = await runExport({ format: 'docx', export_id: exportId }, 'export.docx');
      const files = unzipSync(new Uint8Array(result.bytes));
      const xml = new TextDecoder().decode(files['word/document.xml']);
      const text = xml.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
      const db = t().app.db;
      let at = -1;
      for (const id of pageIds) {
        const layout = await readPageLayout(db, id);
        const heading = text.indexOf(layout.pageName, at + 1);
        expect(heading, layout.pageName).toBeGreaterThan(at);
        at = heading;
        const line = layout.regions
          .flatMap((region) => region.lines)
          .find((each) => each.text && /^[\p{L} ]+$/u.test(each.text));
        if (line) expect(text).toContain(line.text!);
      }
    },
    180_000,
  );

  it.runIf(withShared)(
    'an ALTO export of a page: one valid file, named by the page',
    async () => {
      const result = await runExport(
        { format: 'alto', export_id: exportId, element_id: pageIds[0] },
        'alto.zip',
      );
      const files = unzipSync(new Uint8Array(result.bytes));
      const layout = await readPageLayout(t().app.db, pageIds[0]!);
      expect(Object.keys(files)).toEqual([`${layout.pageName}.xml`]);
      const xml = new TextDecoder().decode(files[`${layout.pageName}.xml`]);
      for (const line of layout.regions.flatMap((region) => region.lines)) {
        expect(xml).toContain(line.id);
      }
      if (canValidate) {
        const written = path.join(dir, 'alto.xml');
        fs.writeFileSync(written, xml);
        const check = spawnSync('xmllint', ['--nonet', '--noout', '--schema', ALTO_XSD, written], {
          env: { ...process.env, XML_CATALOG_FILES: CATALOG },
          encoding: 'utf8',
        });
        expect(check.status, check.stderr).toBe(0);
      }
    },
    180_000,
  );

  it.runIf(withShared)(
    'fails with the reason when its export fails meanwhile',
    async () => {
      const held = await heldExport();
      // The server's recovery of abandoned jobs may pass at any time: it leaves a live one.
      expect(await recoverAbandonedJobs(t().app.db, new Date().toISOString())).toEqual([]);
      const { processId, taskId, agent } = await startExportProcess({
        format: 'csv',
        export_id: held,
      });
      await waiting(taskId, agent);
      await t()
        .app.db.updateTable('corpus_exports')
        .set({ state: 'failed', updated: new Date().toISOString() })
        .where('id', '=', held)
        .execute();
      const { state, logs } = await finished(taskId);
      expect(state).toBe('failed');
      expect(logs).toContain(
        `The export failed: The SQLite export ${held} failed: start a new one.`,
      );
      const listed = await suite.owner.get(`task/${taskId}/artifacts/`);
      expect(listed.json()).toEqual([]);
      expect((await suite.owner.get(`process/${processId}/`)).json().state).toBe('failed');
    },
    180_000,
  );
});
