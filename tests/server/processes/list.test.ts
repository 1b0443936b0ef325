import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../harness';
import { clientFor, makeActorsAndProjects, type Actors, type Role } from '../actors';
import { NOT_AUTHENTICATED } from '../expectedErrors';
import { addRun, createProcess, makeTree, makeVersion } from './fixtures';

describeEachDialect('GET /process/', ({ t }) => {
  let actors: Actors;
  let privateId: string;
  let publicId: string;
  const made: Record<string, string> = {};
  const as = (role: Role) => clientFor(t().app, actors, role);

  const names = async (role: Role, query = '') => {
    const response = await as(role).get(`process/?page_size=500${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { results: { name: string | null }[] }).results.map((p) => p.name);
  };

  beforeAll(async () => {
    ({ actors, privateId, publicId } = await makeActorsAndProjects(t().app));
    await makeTree(t().app, privateId);
    made.first = (await createProcess(as('owner'), privateId, { name: 'First OCR' })).id;
    made.second = (
      await createProcess(as('siteAdmin'), privateId, {
        name: 'Second layout',
        load_children: 'all',
      })
    ).id;
    made.public = (await createProcess(as('owner'), publicId, { name: 'Public 100%' })).id;
    await addRun(as('siteAdmin'), made.second, (await makeVersion(t().app)).versionId);
    const started = await as('siteAdmin').post(`process/${made.second}/start/`, {});
    expect(started.statusCode).toBe(201);
    const now = new Date().toISOString();
    made.local = randomUUID();
    await t()
      .app.db.insertInto('processes')
      .values({
        id: made.local,
        corpus_id: null,
        name: 'Outsider local',
        mode: 'local',
        state: 'unscheduled',
        creator_id: actors.outsider.id,
        created: now,
        started: null,
        finished: null,
        updated: now,
      })
      .execute();
  });

  it('lists what the caller may read, newest first, with the project and creator', async () => {
    expect(await names('owner')).toEqual(['Public 100%', 'Second layout', 'First OCR']);
    expect(await names('outsider')).toEqual(['Outsider local', 'Public 100%']);
    const page = await as('guest').get('process/?page_size=1');
    expect(page.json()).toMatchObject({
      count: 3,
      next: expect.stringContaining('page=2'),
      results: [
        {
          id: made.public,
          name: 'Public 100%',
          mode: 'workers',
          corpus: publicId,
          corpus_name: 'Public',
          state: 'unscheduled',
          creator: { id: actors.owner.id, display_name: 'Owner' },
          activity_state: 'disabled',
        },
      ],
    });
    expect(page.json().results[0]).not.toHaveProperty('tasks');
    const anonymous = await as('anonymous').get('process/');
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual(NOT_AUTHENTICATED);
  });

  it('filters by project, mode, state, name, creator and start', async () => {
    expect(await names('owner', `&corpus=${privateId}`)).toEqual(['Second layout', 'First OCR']);
    expect(await names('owner', '&state=pending')).toEqual(['Second layout']);
    expect(await names('owner', '&state=unscheduled&corpus=' + privateId)).toEqual(['First OCR']);
    expect(await names('owner', '&name=ocr')).toEqual(['First OCR']);
    expect(await names('owner', '&name=100%25')).toEqual(['Public 100%']);
    expect(await names('owner', '&name=_')).toEqual([]);
    expect(await names('owner', '&created=true')).toEqual(['Public 100%', 'First OCR']);
    expect(await names('owner', '&started=true')).toEqual(['Second layout']);
    expect(await names('owner', '&mode=template')).toEqual([]);
    expect(await names('outsider', '&mode=local')).toEqual(['Outsider local']);
    expect(await names('owner', '&with_tasks=true')).toHaveLength(3);
    for (const query of ['corpus=nope', 'mode=dance', 'state=asleep', 'created=maybe']) {
      expect((await as('owner').get(`process/?${query}`)).statusCode, query).toBe(400);
    }
  });

  it('caps pages at 500', async () => {
    const now = new Date().toISOString();
    const rows = Array.from({ length: 500 }, (_, index) => ({
      id: randomUUID(),
      corpus_id: publicId,
      name: `Bulk ${index}`,
      mode: 'workers',
      state: 'unscheduled',
      creator_id: actors.owner.id,
      created: now,
      started: null,
      finished: null,
      updated: now,
    }));
    for (let i = 0; i < rows.length; i += 100) {
      await t()
        .app.db.insertInto('processes')
        .values(rows.slice(i, i + 100))
        .execute();
    }
    const page = await as('owner').get('process/?page_size=100000');
    expect(page.statusCode).toBe(200);
    expect(page.json().count).toBe(503);
    expect(page.json().results).toHaveLength(500);
    expect((await as('owner').get('process/')).json().results).toHaveLength(20);
  });
});
