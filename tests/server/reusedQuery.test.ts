/**
 * Queries built once and run again with other values (server/db/reusedQuery.ts): each call
 * answers for its own values, on both databases, and a query whose values are not all bound as
 * parameters is refused when first run rather than answering for the wrong values.
 */
import { expect, it } from 'vitest';
import { reusedQuery } from '../../server/db/reusedQuery';
import { createTestUser, describeEachDialect } from './harness';

describeEachDialect('reusedQuery', ({ t }) => {
  it('answers each call for its own values', async () => {
    const { app } = t();
    const first = await createTestUser(app);
    const second = await createTestUser(app);
    const byEmailOrId = reusedQuery((db, email: string, id: string) =>
      db
        .selectFrom('users')
        .select(['id', 'email'])
        .where((eb) => eb.or([eb('email', '=', email), eb('id', '=', id)]))
        .orderBy('email'),
    );
    expect(await byEmailOrId(app.db, first.email, '')).toEqual([
      { id: first.id, email: first.email },
    ]);
    expect(await byEmailOrId(app.db, 'nobody@example.org', second.id)).toEqual([
      { id: second.id, email: second.email },
    ]);
    const both = await byEmailOrId(app.db, first.email, second.id);
    expect(both.map((row) => row.id).sort()).toEqual([first.id, second.id].sort());
    expect(await byEmailOrId(app.db, 'nobody@example.org', '')).toEqual([]);
  });

  it('refuses a query that does not bind every value as a parameter', async () => {
    const { app } = t();
    const looked = reusedQuery((db, email: string) =>
      db.selectFrom('users').select('id').where('email', '=', email.toLowerCase()),
    );
    await expect(looked(app.db, 'Someone@example.org')).rejects.toThrow(/bound as a parameter/);
  });
});
