/**
 * How project exports end (spec 001 §2 Export delete confirmation, api part 2 §1.1): deleted by
 * an admin or their starter when done or running (a running one's job stopped), failed when
 * their job is lost, and deleted with their files two weeks after they were made.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { hostname } from 'node:os';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../harness';
import { clientFor, makeActors, makeCorpus, type Actors, type Role } from '../actors';
import { NOT_AUTHENTICATED, NOT_FOUND, UNKNOWN_ID, denied } from '../expectedErrors';
import { claimNextJob, INTERRUPTED } from '../../../server/jobs/queue';
import { exportFilePath } from '../../../server/services/exports/exports';
import { settleInterruptedExports, sweepOldExports } from '../../../server/services/exports/sweep';
import { exportRow, fileExists, hoursAgo, insertExport, DAY_MS } from './exportsFixtures';

const DELETE_DENIED = denied(
  'Only an admin of the project or the user who started the export can delete it.',
);
const NOT_DELETABLE = {
  type: 'client_error',
  errors: [
    {
      code: 'invalid',
      detail: 'Only an export that is done or running can be deleted.',
      attr: null,
    },
  ],
};

describeEachDialect('Project exports: deletion, failures and the two-week sweep', ({ t }) => {
  let actors: Actors;
  let corpusId: string;
  const as = (role: Role) => clientFor(t().app, actors, role);
  const remove = (id: string, role: Role) => as(role).delete(`export/${id}/`);

  beforeAll(async () => {
    actors = await makeActors(t().app);
    corpusId = await makeCorpus(t().app, actors, { name: 'Exported', public: true });
  });

  it('lets the starter and project admins delete a done export, with its file', async () => {
    const app = t().app;
    const byContributor = await insertExport(app, corpusId, actors.contributor.id);
    const byOwner = await insertExport(app, corpusId, actors.owner.id);

    for (const role of ['guest', 'outsider'] as const) {
      const refused = await remove(byOwner, role);
      expect([refused.statusCode, refused.json()]).toEqual([403, DELETE_DENIED]);
    }
    // Not the owner's to refuse: a contributor may not delete another's export either.
    expect((await remove(byOwner, 'contributor')).json()).toEqual(DELETE_DENIED);
    expect((await remove(byOwner, 'anonymous')).json()).toEqual(NOT_AUTHENTICATED);
    expect(fileExists(app, byOwner)).toBe(true);

    expect((await remove(byContributor, 'contributor')).statusCode).toBe(204);
    expect(await exportRow(app, byContributor)).toBeUndefined();
    expect(fileExists(app, byContributor)).toBe(false);
    expect((await remove(byOwner, 'unverifiedAdmin')).statusCode).toBe(204);
    expect(await exportRow(app, byOwner)).toBeUndefined();
    expect(fileExists(app, byOwner)).toBe(false);
    expect((await remove(byOwner, 'owner')).json()).toEqual(NOT_FOUND);

    const bySiteAdmin = await insertExport(app, corpusId, actors.contributor.id);
    expect((await remove(bySiteAdmin, 'siteAdmin')).statusCode).toBe(204);
  });

  it('refuses to delete a created or failed export, and answers 404 to unknown ids', async () => {
    const app = t().app;
    const failed = await insertExport(app, corpusId, actors.owner.id, { state: 'failed' });
    const refused = await remove(failed, 'owner');
    expect([refused.statusCode, refused.json()]).toEqual([400, NOT_DELETABLE]);

    const other = await makeCorpus(app, actors, { name: 'Waiting' });
    const started = await as('owner').post(`corpus/${other}/export/`, {});
    expect(started.statusCode).toBe(201);
    expect((await remove(started.json().id, 'owner')).json()).toEqual(NOT_DELETABLE);
    const hidden = await remove(started.json().id, 'outsider');
    expect([hidden.statusCode, hidden.json()]).toEqual([404, NOT_FOUND]);
    await app.jobs.drain();

    expect((await remove(UNKNOWN_ID, 'owner')).json()).toEqual(NOT_FOUND);
    const notUuid = await remove('export-1', 'owner');
    expect([notUuid.statusCode, notUuid.json()]).toEqual([404, NOT_FOUND]);
  });

  it('stops the job of a running export deleted, and throws its file away', async () => {
    const app = t().app;
    const project = await makeCorpus(app, actors, { name: 'Running' });
    const started = await as('contributor').post(`corpus/${project}/export/`, {});
    const id = started.json().id as string;
    const row = (await exportRow(app, id))!;
    // A runner of another process has taken the job and begun the export.
    const claimed = await claimNextJob(app.db, app.dialect, 'elsewhere:1:abcd');
    expect(claimed?.id).toBe(row.job_id);
    await app.db
      .updateTable('corpus_exports')
      .set({ state: 'running' })
      .where('id', '=', id)
      .execute();
    const file = exportFilePath(app.config.dataDir, id);
    fs.writeFileSync(file, 'half an export');

    expect((await remove(id, 'contributor')).statusCode).toBe(204);
    expect(await exportRow(app, id)).toBeUndefined();
    expect(fs.existsSync(file)).toBe(false);
    const job = await app.db
      .selectFrom('jobs')
      .select(['status', 'stop_requested'])
      .where('id', '=', row.job_id!)
      .executeTakeFirstOrThrow();
    expect(job).toEqual({ status: 'started', stop_requested: 1 });
    // The project may be exported again at once.
    const again = await as('contributor').post(`corpus/${project}/export/`, {});
    expect(again.statusCode).toBe(201);
    await app.db.deleteFrom('jobs').where('id', '=', row.job_id!).execute();
    await app.jobs.drain();
  });

  it('writes no file for an export deleted before its job ran', async () => {
    const app = t().app;
    const project = await makeCorpus(app, actors, { name: 'Gone before' });
    const started = await as('contributor').post(`corpus/${project}/export/`, {});
    const id = started.json().id as string;
    const { job_id: jobId } = (await exportRow(app, id))!;
    await app.db.deleteFrom('corpus_exports').where('id', '=', id).execute();
    await app.jobs.drain();
    expect(fileExists(app, id)).toBe(false);
    const job = await app.db
      .selectFrom('jobs')
      .select(['status', 'error'])
      .where('id', '=', jobId!)
      .executeTakeFirstOrThrow();
    expect(job).toEqual({ status: 'error', error: 'The export was deleted before it was built.' });
  });

  it('builds again, to the end, an export whose server died while building it', async () => {
    const app = t().app;
    const project = await makeCorpus(app, actors, { name: 'Restarted' });
    const started = await as('contributor').post(`corpus/${project}/export/`, {});
    const id = started.json().id as string;
    // A server of this machine claimed the job, began the export, and is no longer running.
    const deadPid = spawnSync('true').pid;
    const claimed = await claimNextJob(app.db, app.dialect, `${hostname()}:${deadPid}:dead`);
    expect(claimed?.id).toBe((await exportRow(app, id))!.job_id);
    await app.db
      .updateTable('corpus_exports')
      .set({ state: 'running' })
      .where('id', '=', id)
      .execute();

    await app.jobs.drain();
    const row = (await exportRow(app, id))!;
    expect(row.state).toBe('done');
    expect(fileExists(app, id)).toBe(true);
    const job = await app.db
      .selectFrom('jobs')
      .select(['status', 'attempts'])
      .where('id', '=', row.job_id!)
      .executeTakeFirstOrThrow();
    expect(job).toEqual({ status: 'processed', attempts: 2 });
  });

  it('fails an export whose job ended without it or vanished, so none stays running', async () => {
    const app = t().app;
    const project = await makeCorpus(app, actors, { name: 'Interrupted' });
    const started = await as('contributor').post(`corpus/${project}/export/`, {});
    const id = started.json().id as string;
    const { job_id: jobId } = (await exportRow(app, id))!;
    // Its server died and the queue gave the job up after its last attempt.
    await app.db
      .updateTable('jobs')
      .set({ status: 'error', error: INTERRUPTED, ended_at: new Date().toISOString() })
      .where('id', '=', jobId!)
      .execute();
    await app.db
      .updateTable('corpus_exports')
      .set({ state: 'running' })
      .where('id', '=', id)
      .execute();
    const listed = await as('guest').get(`corpus/${project}/export/`);
    expect(listed.json().results[0]).toMatchObject({ id, state: 'failed' });
    expect((await exportRow(app, id))!.error).toBe(INTERRUPTED);

    const queuedGone = await as('contributor').post(`corpus/${project}/export/`, {});
    expect(queuedGone.statusCode).toBe(201);
    const second = (await exportRow(app, queuedGone.json().id))!;
    await app.db.deleteFrom('jobs').where('id', '=', second.job_id!).execute();
    expect(await settleInterruptedExports(app.db)).toEqual([second.id]);
    expect((await exportRow(app, second.id))!.state).toBe('failed');
    // A queued job's export is left alone.
    const third = await as('contributor').post(`corpus/${project}/export/`, {});
    expect(await settleInterruptedExports(app.db)).toEqual([]);
    expect((await exportRow(app, third.json().id))!.state).toBe('created');
    await app.jobs.drain();
  });

  it('deletes done exports and their files two weeks after they were made', async () => {
    const app = t().app;
    const project = await makeCorpus(app, actors, { name: 'Aging' });
    const old = await insertExport(app, project, actors.owner.id, { created: hoursAgo(15 * 24) });
    const young = await insertExport(app, project, actors.owner.id, {
      created: hoursAgo(13 * 24),
    });
    const oldFailed = await insertExport(app, project, actors.owner.id, {
      state: 'failed',
      created: hoursAgo(30 * 24),
    });
    expect(fileExists(app, old)).toBe(true);

    const listed = await as('guest').get(`corpus/${project}/export/`);
    expect(listed.json().results.map((e: { id: string }) => e.id)).toEqual([young, oldFailed]);
    expect(await exportRow(app, old)).toBeUndefined();
    expect(fileExists(app, old)).toBe(false);
    expect(fileExists(app, young)).toBe(true);

    // Run by the server on its own: a day later the young one is 14 days and an hour old.
    expect(await sweepOldExports(app.db, app.config.dataDir, Date.now() + DAY_MS)).toEqual([young]);
    expect(fileExists(app, young)).toBe(false);
  });

  it("removes files no export names, as a deleted project's", async () => {
    const app = t().app;
    const project = await makeCorpus(app, actors, { name: 'Deleted later' });
    const id = await insertExport(app, project, actors.owner.id);
    const kept = await insertExport(app, corpusId, actors.owner.id);
    await app.db.deleteFrom('corpora').where('id', '=', project).execute();
    expect(await exportRow(app, id)).toBeUndefined();
    expect(fileExists(app, id)).toBe(true);
    await sweepOldExports(app.db, app.config.dataDir);
    expect(fileExists(app, id)).toBe(false);
    expect(fileExists(app, kept)).toBe(true);
  });
});
