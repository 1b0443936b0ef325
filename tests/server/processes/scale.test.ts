import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { describeEachDialect } from '../harness';
import { clientFor, makeActorsAndProjects } from '../actors';
import { typeIds } from '../elementsFixtures';
import { addRun, createProcess, makeVersion } from './fixtures';

const FOLDERS = 20;
const PAGES_PER_FOLDER = 1000;

describeEachDialect('a process over 20,000 elements', ({ t }) => {
  it('pages its elements and starts in chunks without loading the project at once', async () => {
    const app = t().app;
    const { actors, privateId } = await makeActorsAndProjects(app);
    const types = await typeIds(app, privateId);
    const now = new Date().toISOString();
    const element = (name: string, type: string, topLevel: 0 | 1) => ({
      id: randomUUID(),
      corpus_id: privateId,
      type_id: types[type]!,
      name,
      image_id: null,
      polygon: null,
      rotation_angle: 0,
      mirrored: 0 as const,
      confidence: null,
      creator_id: null,
      worker_run_id: null,
      created: now,
      updated: now,
      children_updated: null,
      top_level: topLevel,
    });
    for (let f = 0; f < FOLDERS; f++) {
      const folder = element(`Folder ${String(f).padStart(2, '0')}`, 'folder', 1);
      const pages = Array.from({ length: PAGES_PER_FOLDER }, (_, p) =>
        element(`Page ${f}-${String(p).padStart(4, '0')}`, 'page', 0),
      );
      await app.db.insertInto('elements').values(folder).execute();
      for (let i = 0; i < pages.length; i += 250) {
        const part = pages.slice(i, i + 250);
        await app.db.insertInto('elements').values(part).execute();
        await app.db
          .insertInto('element_links')
          .values(
            part.map((page, index) => ({
              parent_id: folder.id,
              child_id: page.id,
              position: i + index,
              created: now,
            })),
          )
          .execute();
      }
    }
    const owner = clientFor(app, actors, 'owner');
    const process = await createProcess(owner, privateId, {
      load_children: 'all',
      element_type: 'page',
    });
    const began = Date.now();
    const first = await owner.get(`process/${process.id}/elements/?page_size=500&with_count=true`);
    expect(first.statusCode).toBe(200);
    expect(first.json().count).toBe(FOLDERS * PAGES_PER_FOLDER);
    expect(first.json().results).toHaveLength(500);
    const next = first.json().next.replace(/^.*\/api\/v1\//, '');
    const second = await owner.get(next);
    expect(second.json().results[0].name).toBe('Page 0-0500');
    const folders = await createProcess(owner, privateId, { element_name_contains: 'folder' });
    expect((await owner.get(`process/${folders.id}/elements/?with_count=true`)).json().count).toBe(
      FOLDERS,
    );
    await addRun(owner, process.id, (await makeVersion(app)).versionId);
    const started = await owner.post(`process/${process.id}/start/`, { chunks: 10 });
    expect(started.statusCode).toBe(201);
    expect(
      started.json().tasks.map((task: { elements_count: number }) => task.elements_count),
    ).toEqual(Array(10).fill(2000));
    // Generous: this runs beside other suites on a shared machine.
    expect(Date.now() - began).toBeLessThan(30_000);
  }, 120_000);
});
