import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { ABANDONED_AFTER_MS, KEY_LIFETIME_MS } from '../../server/idempotency';
import { Client, describeEachDialect } from './harness';
import { clientFor, makeActors, makeCorpus, type Actors } from './actors';
import { elementCount } from './elementsFixtures';

describeEachDialect('Idempotency-Key', ({ t }) => {
  let actors: Actors;
  let corpusId: string;
  let contributor: Client;
  const key = () => ({ 'idempotency-key': randomUUID() });
  const folder = (name: string) => ({ corpus: corpusId, type: 'folder', name });

  async function ageKey(idempotencyKey: string, ms: number): Promise<void> {
    await t()
      .app.db.updateTable('idempotency_keys')
      .set({ created: new Date(Date.now() - ms).toISOString() })
      .where('key', '=', idempotencyKey)
      .execute();
  }

  beforeAll(async () => {
    actors = await makeActors(t().app);
    corpusId = await makeCorpus(t().app, actors, { name: 'Replays' });
    contributor = clientFor(t().app, actors, 'contributor');
  });

  it('applies a create once and answers its repetition with the same response', async () => {
    const headers = key();
    const before = await elementCount(t().app, corpusId);
    const first = await contributor.post('elements/create/', folder('Box 1'), headers);
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await contributor.post('elements/create/', folder('Box 1'), headers);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(again.headers['content-type']).toMatch(/application\/json/);
    expect(await elementCount(t().app, corpusId)).toBe(before + 1);
  });

  it('answers a delete replayed after its answer was lost with that answer, not 404', async () => {
    const created = await contributor.post('elements/create/', folder('Box 2'));
    const id = created.json().id;
    const admin = clientFor(t().app, actors, 'owner');
    const headers = key();
    const first = await admin.delete(`element/${id}/`, undefined, headers);
    expect(first.statusCode).toBe(204);
    const again = await admin.delete(`element/${id}/`, undefined, headers);
    expect(again.statusCode).toBe(204);
    expect(again.headers['idempotent-replayed']).toBe('true');
    // Without the key, the element is simply gone.
    expect((await admin.delete(`element/${id}/`)).statusCode).toBe(404);
  });

  it('replays a refusal too, without applying anything', async () => {
    const headers = key();
    const before = await elementCount(t().app, corpusId);
    const first = await contributor.post(
      'elements/create/',
      { corpus: corpusId, name: 'x' },
      headers,
    );
    expect(first.statusCode).toBe(400);
    const again = await contributor.post(
      'elements/create/',
      { corpus: corpusId, name: 'x' },
      headers,
    );
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual(first.json());
    expect(await elementCount(t().app, corpusId)).toBe(before);
  });

  it('refuses the key with another body, path or method, changing nothing', async () => {
    const headers = key();
    await contributor.post('elements/create/', folder('Box 3'), headers);
    const before = await elementCount(t().app, corpusId);
    const otherBody = await contributor.post('elements/create/', folder('Box 4'), headers);
    expect(otherBody.statusCode).toBe(422);
    expect(otherBody.json()).toEqual({
      type: 'client_error',
      errors: [
        {
          code: 'idempotency_key_reused',
          detail: 'This Idempotency-Key was already used for a different request.',
          attr: null,
        },
      ],
    });
    const otherPath = await contributor.post(
      'elements/create/?slim_output=true',
      folder('Box 3'),
      headers,
    );
    expect(otherPath.statusCode).toBe(422);
    expect(await elementCount(t().app, corpusId)).toBe(before);
  });

  it('keeps keys apart per user', async () => {
    const headers = key();
    const before = await elementCount(t().app, corpusId);
    const mine = await contributor.post('elements/create/', folder('Shared key'), headers);
    const theirs = await clientFor(t().app, actors, 'owner').post(
      'elements/create/',
      folder('Shared key'),
      headers,
    );
    expect(theirs.statusCode).toBe(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.json().id).not.toBe(mine.json().id);
    expect(await elementCount(t().app, corpusId)).toBe(before + 2);
  });

  it('refuses a malformed key before doing anything', async () => {
    const before = await elementCount(t().app, corpusId);
    for (const bad of ['', 'with space', 'x'.repeat(256), 'é']) {
      const response = await contributor.post('elements/create/', folder('Bad key'), {
        'idempotency-key': bad,
      });
      expect(response.statusCode, JSON.stringify(bad)).toBe(400);
      expect(response.json().errors[0].code).toBe('invalid_idempotency_key');
    }
    expect(await elementCount(t().app, corpusId)).toBe(before);
  });

  it('asks to retry while the first request is still running, and frees an abandoned key', async () => {
    const headers = key();
    // As if the first copy were still running: its row is there, its answer not yet.
    await contributor.post('elements/create/', folder('Busy'), headers);
    await t()
      .app.db.updateTable('idempotency_keys')
      .set({ status_code: null, body: null })
      .where('key', '=', headers['idempotency-key'])
      .execute();
    const busy = await contributor.post('elements/create/', folder('Busy'), headers);
    expect(busy.statusCode).toBe(409);
    expect(busy.headers['retry-after']).toBe('1');
    expect(busy.json().errors[0].code).toBe('idempotency_key_in_use');

    await ageKey(headers['idempotency-key'], ABANDONED_AFTER_MS + 1000);
    const retried = await contributor.post('elements/create/', folder('Busy'), headers);
    expect(retried.statusCode).toBe(201);
  });

  it('forgets a key after a day', async () => {
    const headers = key();
    const before = await elementCount(t().app, corpusId);
    await contributor.post('elements/create/', folder('Old'), headers);
    await ageKey(headers['idempotency-key'], KEY_LIFETIME_MS + 1000);
    const later = await contributor.post('elements/create/', folder('Old'), headers);
    expect(later.statusCode).toBe(201);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(await elementCount(t().app, corpusId)).toBe(before + 2);
  });

  it('ignores the header on safe methods and for anonymous callers', async () => {
    const headers = key();
    const list = await contributor.get(`corpus/${corpusId}/elements/`, headers);
    expect(list.statusCode).toBe(200);
    const anonymous = await new Client(t().app).prime();
    const refused = await anonymous.post('elements/create/', folder('Anon'), headers);
    expect(refused.statusCode).toBe(401);
    const stored = await t()
      .app.db.selectFrom('idempotency_keys')
      .select('key')
      .where('key', '=', headers['idempotency-key'])
      .execute();
    expect(stored).toEqual([]);
  });
});
