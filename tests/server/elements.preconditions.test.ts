import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from './harness';
import { clientFor, makeActors, makeCorpus, type Actors } from './actors';

describeEachDialect('conditional element edits', ({ t }) => {
  let actors: Actors;
  let corpusId: string;
  const anHourAgo = () => new Date(Date.now() - 3600_000).toUTCString();

  beforeAll(async () => {
    actors = await makeActors(t().app);
    corpusId = await makeCorpus(t().app, actors, { name: 'Conflicts' });
  });

  async function newFolder(name: string): Promise<string> {
    const created = await clientFor(t().app, actors, 'owner').post('elements/create/', {
      corpus: corpusId,
      type: 'folder',
      name,
    });
    expect(created.statusCode).toBe(201);
    return created.json().id;
  }

  it('dates an element and accepts an edit based on its current version', async () => {
    const id = await newFolder('Box A');
    const contributor = clientFor(t().app, actors, 'contributor');
    const read = await contributor.get(`element/${id}/`);
    const lastModified = read.headers['last-modified'] as string;
    expect(new Date(lastModified).toUTCString()).toBe(lastModified);
    const patched = await contributor.patch(
      `element/${id}/`,
      { name: 'Box A, sorted' },
      { 'if-unmodified-since': lastModified },
    );
    expect(patched.statusCode).toBe(200);
    expect(patched.json().name).toBe('Box A, sorted');
    expect(Date.parse(patched.headers['last-modified'] as string)).toBeGreaterThanOrEqual(
      Date.parse(lastModified),
    );
  });

  it('refuses an edit based on an older version with 412 and the current one', async () => {
    const id = await newFolder('Box B');
    const contributor = clientFor(t().app, actors, 'contributor');
    const stale = await contributor.patch(
      `element/${id}/`,
      { name: 'Mine' },
      { 'if-unmodified-since': anHourAgo() },
    );
    expect(stale.statusCode).toBe(412);
    const body = stale.json();
    expect(body.errors).toEqual([
      {
        code: 'precondition_failed',
        detail: 'This element was changed by someone else since your edit was made.',
        attr: null,
      },
    ]);
    expect(body.current).toMatchObject({ id, name: 'Box B', type: 'folder' });
    expect(stale.headers['last-modified']).toBeDefined();
    const now = await contributor.get(`element/${id}/`);
    expect(now.json().name).toBe('Box B');
  });

  it('refuses a delete based on an older version, and deletes with the current one', async () => {
    const id = await newFolder('Box C');
    const owner = clientFor(t().app, actors, 'owner');
    const stale = await owner.delete(`element/${id}/`, undefined, {
      'if-unmodified-since': anHourAgo(),
    });
    expect(stale.statusCode).toBe(412);
    expect((await owner.get(`element/${id}/`)).statusCode).toBe(200);
    const current = (await owner.get(`element/${id}/`)).headers['last-modified'] as string;
    const deleted = await owner.delete(`element/${id}/`, undefined, {
      'if-unmodified-since': current,
    });
    expect(deleted.statusCode).toBe(204);
  });

  it('refuses an edit based on a version read in the same second as a change made since', async () => {
    const id = await newFolder('Box E');
    const contributor = clientFor(t().app, actors, 'contributor');
    const read = (await contributor.get(`element/${id}/`)).headers['last-modified'] as string;
    // Another hand changes it at once: well within the second the contributor read.
    const theirs = await clientFor(t().app, actors, 'owner').patch(`element/${id}/`, {
      name: 'Theirs',
    });
    expect(theirs.statusCode).toBe(200);
    expect(Date.parse(theirs.headers['last-modified'] as string)).toBeGreaterThan(Date.parse(read));
    const mine = await contributor.patch(
      `element/${id}/`,
      { name: 'Mine' },
      { 'if-unmodified-since': read },
    );
    expect(mine.statusCode).toBe(412);
    expect(mine.json().current.name).toBe('Theirs');
  });

  it('a children list read just before a child is added or renamed is not answered 304', async () => {
    const parent = await newFolder('Box F');
    const owner = clientFor(t().app, actors, 'owner');
    const list = () => owner.get(`elements/${parent}/children/`);
    const since = async (date: string) =>
      owner.get(`elements/${parent}/children/`, { 'if-modified-since': date });
    const empty = await list();
    const created = await owner.post('elements/create/', {
      corpus: corpusId,
      type: 'folder',
      name: 'Bundle 1',
      parent,
    });
    expect(created.statusCode).toBe(201);
    const added = await since(empty.headers['last-modified'] as string);
    expect(added.statusCode).toBe(200);
    expect(added.json().results.map((e: { name: string }) => e.name)).toEqual(['Bundle 1']);
    await owner.patch(`element/${created.json().id}/`, { name: 'Bundle one' });
    const renamed = await since(added.headers['last-modified'] as string);
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().results.map((e: { name: string }) => e.name)).toEqual(['Bundle one']);
  });

  it('ignores a date it cannot read, and never tells a reader without rights', async () => {
    const id = await newFolder('Box D');
    const contributor = clientFor(t().app, actors, 'contributor');
    const unreadable = await contributor.patch(
      `element/${id}/`,
      { name: 'Box D2' },
      { 'if-unmodified-since': 'yesterday-ish' },
    );
    expect(unreadable.statusCode).toBe(200);
    // Rights come first: a guest gets 403, not the current version in a 412.
    const guest = await clientFor(t().app, actors, 'guest').patch(
      `element/${id}/`,
      { name: 'x' },
      { 'if-unmodified-since': anHourAgo() },
    );
    expect(guest.statusCode).toBe(403);
    const outsider = await clientFor(t().app, actors, 'outsider').patch(
      `element/${id}/`,
      { name: 'x' },
      { 'if-unmodified-since': anHourAgo() },
    );
    expect(outsider.statusCode).toBe(404);
  });
});
