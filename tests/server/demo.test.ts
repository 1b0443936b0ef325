import { expect, it } from 'vitest';
import { seedDemo, DEMO_ADMIN_EMAIL, DEMO_CORPUS_NAME } from '../../server/demo/index';
import { Client, describeEachDialect } from './harness';

describeEachDialect('demo content on an empty database', ({ t }) => {
  it('creates an admin whose printed password logs in, and a project they administer', async () => {
    const demo = await seedDemo(t().app);
    expect(demo?.email).toBe(DEMO_ADMIN_EMAIL);
    expect(demo?.password).toMatch(/^[\w-]{16}$/);

    const client = await new Client(t().app).prime();
    const login = await client.post('/api/v1/user/login/', {
      email: demo!.email,
      password: demo!.password,
    });
    expect(login.statusCode).toBe(200);
    expect(login.json()).toMatchObject({ is_admin: true, verified_email: true });

    const corpora = (await client.get('/api/v1/corpus/')).json();
    expect(corpora).toHaveLength(1);
    expect(corpora[0]).toMatchObject({
      name: DEMO_CORPUS_NAME,
      rights: ['read', 'write', 'admin'],
    });
  });

  it('does nothing once the database has users', async () => {
    expect(await seedDemo(t().app)).toBeNull();
    const count = await t()
      .app.db.selectFrom('users')
      .select(({ fn }) => fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
  });
});
