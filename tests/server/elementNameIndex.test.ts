/**
 * The name filter through its index (migration 0022: FTS5 trigram on SQLite, pg_trgm on
 * PostgreSQL) finds exactly what reading every name finds: whatever the case, for short texts
 * and LIKE's own wildcards, and after elements are renamed and deleted.
 */
import { sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { Client, createTestUser, describeEachDialect, type TestUser } from './harness';
import { insertElements } from './elementsFixtures';

const NAMES = [
  'Registre des baptêmes 1742',
  'REGISTRE paroissial',
  'registres mêlés',
  'Folio 12r',
  'Folio 12v',
  'folio_12 (copie)',
  '100% coton',
  'Acte n° 7',
  'Cahier',
  'e\u0301tat civil',
];

describeEachDialect('the name filter through its index', ({ t, dialect }) => {
  let app: FastifyInstance;
  let owner: TestUser;
  let corpusId: string;
  let ids: Record<string, string>;

  const listed = async (name: string): Promise<string[]> => {
    const names: string[] = [];
    let url: string | null =
      `/api/v1/corpus/${corpusId}/elements/?name=${encodeURIComponent(name)}&page_size=500`;
    while (url) {
      const response = await new Client(app, owner.token).get(url);
      expect(response.statusCode).toBe(200);
      const body = response.json() as { results: { name: string }[]; next: string | null };
      names.push(...body.results.map((element) => element.name));
      url = body.next ? new URL(body.next).pathname + new URL(body.next).search : null;
    }
    return names.sort();
  };
  /** What reading every name finds: ASCII letters whatever their case, the rest as written. */
  const expected = (names: string[], text: string) => {
    const fold = (value: string) => value.replace(/[A-Z]/g, (c) => c.toLowerCase());
    return names.filter((name) => fold(name).includes(fold(text))).sort();
  };

  beforeAll(async () => {
    app = t().app;
    owner = await createTestUser(app);
    const created = await new Client(app, owner.token).post('corpus/', { name: 'Names' });
    corpusId = created.json().id as string;
    ids = await insertElements(
      app,
      corpusId,
      NAMES.map((name) => ({ name, type: 'page' })),
    );
  });

  it('finds what reading every name finds', async () => {
    for (const text of [
      'registre',
      'REGISTRE',
      'Registres',
      'folio 12',
      'lio',
      '12',
      'r',
      '_12',
      '100%',
      '% c',
      'n° 7',
      'baptêmes',
      'e\u0301tat',
      'nothing like it',
    ]) {
      expect(await listed(text), text).toEqual(expected(NAMES, text));
    }
  });

  it('follows renames and deletions', async () => {
    const client = new Client(app, owner.token);
    const renamed = await client.patch(`element/${ids['Cahier']}/`, {
      name: 'Cahier de doléances',
    });
    expect(renamed.statusCode).toBe(200);
    expect(await listed('doléances')).toEqual(['Cahier de doléances']);
    expect(await listed('Cahier')).toEqual(['Cahier de doléances']);

    const removed = await client.delete(`element/${ids['REGISTRE paroissial']}/`);
    expect(removed.statusCode).toBeLessThan(300);
    // Deletion may run as a job: wait until the element is gone.
    for (let i = 0; i < 100; i += 1) {
      const gone = await app.db
        .selectFrom('elements')
        .select('id')
        .where('id', '=', ids['REGISTRE paroissial']!)
        .executeTakeFirst();
      if (!gone) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const now = NAMES.filter((name) => name !== 'REGISTRE paroissial').map((name) =>
      name === 'Cahier' ? 'Cahier de doléances' : name,
    );
    expect(await listed('registre')).toEqual(expected(now, 'registre'));
  });

  it('is an index the database uses', async () => {
    if (dialect === 'sqlite') {
      // The trigram table holds every element's name, rowid for rowid.
      const { rows } = await sql<{ n: number }>`select count(*) as n from element_names
        where name like '%registre%'`.execute(app.db);
      const direct = await app.db
        .selectFrom('elements')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where(sql<boolean>`name like '%registre%'`)
        .executeTakeFirstOrThrow();
      expect(Number(rows[0]!.n)).toBe(Number(direct.n));
      const plan = await sql<{ detail: string }>`explain query plan
        select rowid from element_names where name like '%registre%'`.execute(app.db);
      expect(plan.rows.map((row) => row.detail).join(' ')).toMatch(/VIRTUAL TABLE INDEX/);
    } else {
      const { rows } = await sql<{ indexdef: string }>`select indexdef from pg_indexes
        where indexname = 'elements_name_trgm' and schemaname = current_schema()`.execute(app.db);
      expect(rows[0]?.indexdef).toMatch(/gin \(lower\(name\) .*gin_trgm_ops\)/);
    }
  });
});
