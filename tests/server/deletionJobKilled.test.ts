/**
 * A deletion job whose server is killed (SIGKILL, a real process) in the middle: after a
 * restart every element is either deleted or still where it was, the job resumes to the end,
 * and its state says what happened.
 */
import { expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createElements } from '../../server/services/elements/create';
import { Client, createTestUser, describeEachDialect } from './harness';
import { startChildServer, killChildServer, until } from './childProcess';
import { expectTopLevelConsistent, insertElements, typeIds } from './elementsFixtures';

const LINES = 5000;

async function jobOf(app: FastifyInstance, corpusId: string) {
  return app.db.selectFrom('jobs').selectAll().where('corpus_id', '=', corpusId).executeTakeFirst();
}

/** Every element of the project by name, with the names of its parents. */
async function tree(app: FastifyInstance, corpusId: string) {
  const rows = await app.db
    .selectFrom('elements')
    .leftJoin('element_links', 'element_links.child_id', 'elements.id')
    .leftJoin('elements as parent', 'parent.id', 'element_links.parent_id')
    .select(['elements.name as name', 'parent.name as parent'])
    .where('elements.corpus_id', '=', corpusId)
    .execute();
  return rows;
}

describeEachDialect('a deletion job when its server is killed', ({ t }) => {
  it('resumes after the restart: every line deleted, nothing left without its parent', async () => {
    const { app, config } = t();
    const owner = await createTestUser(app);
    const created = await new Client(app, owner.token).post('corpus/', { name: 'Killed' });
    const corpusId = created.json().id as string;
    const ids = await insertElements(app, corpusId, [
      { name: 'Page', type: 'page' },
      { name: 'Region', type: 'paragraph', parent: 'Page' },
      { name: 'Other region', type: 'paragraph', parent: 'Page' },
      { name: 'other line', type: 'text_line', parent: 'Other region' },
    ]);
    const types = await typeIds(app, corpusId);
    await app.db.transaction().execute((trx) =>
      createElements(
        trx,
        Array.from({ length: LINES }, (_, i) => ({
          corpusId,
          typeId: types.text_line!,
          name: `line ${i}`,
          parentId: ids.Region!,
        })),
      ),
    );

    const first = await startChildServer(config);
    try {
      const response = await fetch(`${first.url}/api/v1/element/${ids.Region}/`, {
        method: 'DELETE',
        headers: { authorization: `Token ${owner.token}` },
      });
      expect(response.status).toBe(202);
      await until('the job to be under way', async () => {
        const job = await jobOf(app, corpusId);
        return job && job.status === 'started' && job.progress >= 0.05 ? job : null;
      });
    } finally {
      await killChildServer(first);
    }

    // Cut short: some lines are gone, and each one left is still in the region.
    const left = await tree(app, corpusId);
    const lines = left.filter((row) => row.name.startsWith('line '));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.length).toBeLessThan(LINES);
    expect(lines.filter((row) => row.parent !== 'Region')).toEqual([]);
    await expectTopLevelConsistent(app);

    const second = await startChildServer(config);
    try {
      const job = await until('the job to end', async () => {
        const row = await jobOf(app, corpusId);
        return row && (row.status === 'processed' || row.status === 'error') ? row : null;
      });
      expect(job).toMatchObject({ status: 'processed', error: null, progress: 1 });
      expect(JSON.parse(job.result!)).toEqual({ deleted: LINES + 1, total: LINES + 1 });
      expect(job.attempts).toBe(2);
    } finally {
      await killChildServer(second);
    }
    const after = await tree(app, corpusId);
    expect(after.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: 'other line', parent: 'Other region' },
      { name: 'Other region', parent: 'Page' },
      { name: 'Page', parent: null },
    ]);
    await expectTopLevelConsistent(app);
  }, 180_000);
});
