import { expect, it } from 'vitest';
import { describeEachDialect } from '../harness';
import { makeActorsAndProjects, makeCorpus } from '../actors';
import { makeImage } from '../elementsFixtures';
import { NOT_FOUND } from '../expectedErrors';
import { claim, finish, makeProcess, registerAgent } from './fixtures';

describeEachDialect('Task tokens', ({ t }) => {
  it("act as the process' creator on its project only, and only while the task runs", async () => {
    const app = t().app;
    const { actors, privateId, publicId } = await makeActorsAndProjects(app);
    const made = await makeProcess(app, privateId, actors.owner.id, [{ slug: 'reader' }]);
    const agent = await registerAgent(app, made.farm, 'token-host', 1);
    const [task] = await claim(app, agent, 1);
    const headers = { authorization: `Ponos ${task!.token}` };
    const get = (url: string) => app.inject({ method: 'GET', url: `/api/v1/${url}`, headers });

    const corpus = await get(`corpus/${privateId}/`);
    expect(corpus.statusCode).toBe(200);
    expect(corpus.json().id).toBe(privateId);
    expect(corpus.json().rights).toEqual(['read', 'write', 'admin']);
    const self = await get(`task/${task!.id}/`);
    expect(self.statusCode).toBe(200);
    expect(self.json().state).toBe('running');

    // The owner reads the public project too, but the token does not.
    const other = await get(`corpus/${publicId}/`);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual(NOT_FOUND);
    const list = await get('corpus/');
    expect(list.statusCode).toBe(200);
    const listed = list.json() as { id: string }[] | { results: { id: string }[] };
    const ids = (Array.isArray(listed) ? listed : listed.results).map((item) => item.id);
    expect(ids).toEqual([privateId]);
    expect(ids).not.toContain(publicId);
    // Nor is it a site admin's session, whoever the creator is.
    expect((await get('agents/')).statusCode).toBe(403);

    // Writes go through as the creator, without CSRF.
    const created = await app.inject({
      method: 'POST',
      url: '/api/v1/elements/create/',
      headers,
      payload: { corpus: privateId, type: 'folder', name: 'Made by a task' },
    });
    expect(created.statusCode).toBe(201);
    const row = await app.db
      .selectFrom('elements')
      .select('creator_id')
      .where('id', '=', created.json().id)
      .executeTakeFirstOrThrow();
    expect(row.creator_id).toBe(actors.owner.id);

    // IIIF images of the project are readable with the token, others are not.
    const ownImage = await makeImage(app, privateId);
    const otherProject = await makeCorpus(app, actors, { name: 'Another of the owner' });
    const otherImage = await makeImage(app, otherProject);
    const iiif = (id: string) =>
      app.inject({ method: 'GET', url: `/iiif/${id}/info.json`, headers });
    expect((await iiif(ownImage.id)).statusCode).not.toBe(404);
    expect((await iiif(otherImage.id)).statusCode).toBe(404);
    expect((await get(`corpus/${otherProject}/`)).statusCode).toBe(404);
    // Nor the tasks of the owner's processes elsewhere.
    const elsewhere = await makeProcess(app, otherProject, actors.owner.id, [{ slug: 'far' }]);
    expect((await get(`task/${elsewhere.tasks.far}/`)).statusCode).toBe(404);
    expect((await get(`task/${elsewhere.tasks.far}/artifacts/`)).statusCode).toBe(404);
    const asOwner = await app.inject({
      method: 'GET',
      url: `/iiif/${otherImage.id}/info.json`,
      headers: { authorization: `Token ${actors.owner.token}` },
    });
    expect(asOwner.statusCode).not.toBe(404);

    expect((await finish(app, agent, task!.id, 'completed')).statusCode).toBe(200);
    const after = await get(`corpus/${privateId}/`);
    expect(after.statusCode).toBe(401);
    expect(
      (
        await app.inject({
          method: 'GET',
          url: '/api/v1/corpus/',
          headers: { authorization: 'Ponos nonsense' },
        })
      ).statusCode,
    ).toBe(401);
  });
});
