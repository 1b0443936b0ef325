import { expect, it } from 'vitest';
import { describeEachDialect } from './harness';
import { clientFor, makeActors, type Actors } from './actors';
import {
  NOT_AUTHENTICATED,
  NOT_FOUND,
  UNKNOWN_ID,
  UUID,
  denied,
  validation,
} from './expectedErrors';
import { CURRENCY_INVALID, MONEY_MESSAGES } from '../../server/services/budgets/money';

const ENTERPRISE = { FOLIA_FEATURES: 'enterprise', FOLIA_SECRET_KEY: 'b4'.repeat(32) };
const ONLY_ADMINS = denied('Only site administrators can do this.');

describeEachDialect(
  'Budgets',
  ({ t }) => {
    let actors: Actors;
    const as = (role: keyof Actors | 'anonymous') => clientFor(t().app, actors, role);
    const count = async () =>
      Number(
        (
          await t()
            .app.db.selectFrom('budgets')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );

    it('are created, listed, edited and deleted by site admins, and read by users', async () => {
      actors = await makeActors(t().app);
      const admin = as('siteAdmin');
      const created = await admin.post('budgets/', {
        name: ' Digitisation 2026 ',
        amount: '1500.5',
        currency: 'eur',
      });
      expect(created.statusCode, created.body).toBe(201);
      const budget = created.json();
      expect(budget).toEqual({
        id: expect.stringMatching(UUID),
        name: 'Digitisation 2026',
        amount: '1500.50',
        currency: 'EUR',
        spent: '0.00',
        remaining: '1500.50',
        creator: { id: actors.siteAdmin.id, display_name: 'Site admin' },
        created: expect.any(String),
        updated: expect.any(String),
      });
      // A JSON number is read as the same decimal.
      const other = await admin.post('budgets/', { name: 'Archive', amount: 20, currency: 'USD' });
      expect(other.json()).toMatchObject({ amount: '20.00', currency: 'USD' });

      // Any logged-in user sees budgets with their amounts (see services/budgets/budgets.ts).
      const listed = await as('guest').get('budgets/');
      expect(listed.statusCode).toBe(200);
      expect(listed.json()).toMatchObject({ count: 2, next: null, previous: null });
      expect(listed.json().results.map((b: { name: string }) => b.name)).toEqual([
        'Archive',
        'Digitisation 2026',
      ]);
      expect((await as('outsider').get(`budget/${budget.id}/`)).json()).toEqual(budget);

      const edited = await admin.patch(`budget/${budget.id}/`, { amount: '2000', name: 'Digi' });
      expect(edited.statusCode).toBe(200);
      expect(edited.json()).toMatchObject({ name: 'Digi', amount: '2000.00', currency: 'EUR' });

      expect((await admin.delete(`budget/${other.json().id}/`)).statusCode).toBe(204);
      expect((await admin.get(`budget/${other.json().id}/`)).json()).toEqual(NOT_FOUND);
      expect(await count()).toBe(1);
    });

    it('refuse bad input with the field named, and change nothing', async () => {
      const admin = as('siteAdmin');
      const before = await count();
      const cases: [unknown, object][] = [
        [
          { name: 'A', amount: '-5', currency: 'EUR' },
          validation('amount', MONEY_MESSAGES.negative),
        ],
        [
          { name: 'A', amount: '1.005', currency: 'EUR' },
          validation('amount', MONEY_MESSAGES.places),
        ],
        [
          { name: 'A', amount: 'lots', currency: 'EUR' },
          validation('amount', MONEY_MESSAGES.invalid),
        ],
        [{ name: 'A', amount: '5', currency: 'EURO' }, validation('currency', CURRENCY_INVALID)],
        [{ name: 'A', amount: '5', currency: 'XYZ' }, validation('currency', CURRENCY_INVALID)],
        [
          { name: '  ', amount: '5', currency: 'EUR' },
          validation('name', 'This field may not be blank.', 'blank'),
        ],
      ];
      for (const [body, expected] of cases) {
        const response = await admin.post('budgets/', body);
        expect(response.statusCode, JSON.stringify(body)).toBe(400);
        expect(response.json()).toEqual(expected);
      }
      const missing = await admin.post('budgets/', {});
      expect(missing.statusCode).toBe(400);
      expect(
        missing
          .json()
          .errors.map((e: { attr: string }) => e.attr)
          .sort(),
      ).toEqual(['amount', 'currency', 'name']);
      const malformed = await admin.post('budgets/', '{"name": "A",');
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json().type).toBe('client_error');
      const wrongType = await admin.post('budgets/', { name: 3, amount: [], currency: 'EUR' });
      expect(wrongType.statusCode).toBe(400);
      expect((await admin.post('budgets/', '[]')).statusCode).toBe(400);
      expect(await count()).toBe(before);

      const id = (await admin.get('budgets/')).json().results[0].id as string;
      const unchanged = (await admin.get(`budget/${id}/`)).json();
      const patched = await admin.patch(`budget/${id}/`, { amount: '-1', currency: 'eu' });
      expect(patched.statusCode).toBe(400);
      expect(patched.json().errors).toHaveLength(2);
      expect((await admin.get(`budget/${id}/`)).json()).toEqual(unchanged);
    });

    it('answer 404 for unknown or malformed ids, and refuse non-admins', async () => {
      const admin = as('siteAdmin');
      for (const id of [UNKNOWN_ID, 'not-a-uuid', '1']) {
        for (const path of [`budget/${id}/`, `budget/${id}/entries/`, `budget/${id}/summary/`]) {
          const response = await admin.get(path);
          expect(response.statusCode, path).toBe(404);
          expect(response.json()).toEqual(NOT_FOUND);
        }
        expect((await admin.patch(`budget/${id}/`, { name: 'X' })).statusCode).toBe(404);
        expect((await admin.delete(`budget/${id}/`)).statusCode).toBe(404);
      }
      const id = (await admin.get('budgets/')).json().results[0].id as string;
      for (const role of ['owner', 'guest', 'unverifiedAdmin'] as const) {
        const who = as(role);
        expect(
          (await who.post('budgets/', { name: 'Mine', amount: '1', currency: 'EUR' })).json(),
        ).toEqual(ONLY_ADMINS);
        expect((await who.patch(`budget/${id}/`, { amount: '0' })).json()).toEqual(ONLY_ADMINS);
        expect((await who.delete(`budget/${id}/`)).json()).toEqual(ONLY_ADMINS);
      }
      const anonymous = as('anonymous');
      expect((await anonymous.get('budgets/')).json()).toEqual(NOT_AUTHENTICATED);
      expect((await anonymous.get(`budget/${id}/`)).statusCode).toBe(401);
      expect((await admin.get(`budget/${id}/`)).json().amount).toBe('2000.00');
    });

    it('and farm rates are set by site admins only, as decimals', async () => {
      const farm = await t()
        .app.db.selectFrom('farms')
        .select(['id', 'name'])
        .executeTakeFirstOrThrow();
      const admin = as('siteAdmin');
      const set = await admin.patch(`farm/${farm.id}/`, { rate: '12.5' });
      expect(set.statusCode).toBe(200);
      expect(set.json()).toEqual({ id: farm.id, name: farm.name, rate: '12.50' });
      expect((await as('owner').patch(`farm/${farm.id}/`, { rate: '0' })).json()).toEqual(
        ONLY_ADMINS,
      );
      expect((await admin.patch(`farm/${farm.id}/`, { rate: '-1' })).json()).toEqual(
        validation('rate', MONEY_MESSAGES.negative),
      );
      expect((await admin.patch(`farm/${UNKNOWN_ID}/`, { rate: '1' })).statusCode).toBe(404);
      expect((await admin.patch('farm/nope/', { rate: '1' })).statusCode).toBe(404);
      const row = await t()
        .app.db.selectFrom('farms')
        .select('rate')
        .where('id', '=', farm.id)
        .executeTakeFirstOrThrow();
      expect(Number(row.rate)).toBe(1250);
    });
  },
  ENTERPRISE,
);

describeEachDialect('Budgets in the community edition', ({ t }) => {
  it('do not exist', async () => {
    const actors = await makeActors(t().app);
    const admin = clientFor(t().app, actors, 'siteAdmin');
    expect((await admin.get('budgets/')).json()).toEqual(NOT_FOUND);
    expect(
      (await admin.post('budgets/', { name: 'A', amount: '1', currency: 'EUR' })).statusCode,
    ).toBe(404);
    expect((await admin.get(`budget/${UNKNOWN_ID}/`)).statusCode).toBe(404);
  });
});
