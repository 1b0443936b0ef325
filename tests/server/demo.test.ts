import { expect, it } from 'vitest';
import { seedDemo, DEMO_ADMIN_EMAIL, DEMO_CORPUS_NAME } from '../../server/demo/index';
import { Client, describeEachDialect } from './harness';
import { DEMO_CLASSES, DEMO_FOLDER_NAME, DEMO_PAGE_COUNT } from '../../server/demo/content';

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

  it('fills the project with a folder of pages carrying regions, lines, text and classes', async () => {
    const admin = await t()
      .app.db.selectFrom('users')
      .select('auth_token')
      .where('email', '=', DEMO_ADMIN_EMAIL)
      .executeTakeFirstOrThrow();
    const api = new Client(t().app, admin.auth_token);
    const [corpus] = (await api.get('/api/v1/corpus/')).json();
    const top = (await api.get(`/api/v1/corpus/${corpus.id}/elements/?top_level=true`)).json();
    expect(top.results.map((e: { name: string }) => e.name)).toEqual([DEMO_FOLDER_NAME]);
    const pages = (await api.get(`/api/v1/elements/${top.results[0].id}/children/`)).json();
    expect(pages.count).toBe(DEMO_PAGE_COUNT);
    expect(pages.results[0]).toMatchObject({ name: 'Folio 1', type: 'page' });
    expect(pages.results[0].zone.image.width).toBe(1600);

    const regions = (await api.get(`/api/v1/elements/${pages.results[0].id}/children/`)).json();
    const types = new Set(regions.results.map((r: { type: string }) => r.type));
    expect([...types].sort()).toEqual(['page_number', 'paragraph']);
    // Some pages have notes in the margin, of a type the import added to the project.
    expect(corpus.types.map((type: { slug: string }) => type.slug)).toContain('marginalia');
    const lines = (
      await api.get(`/api/v1/corpus/${corpus.id}/elements/?type=text_line&page_size=1`)
    ).json();
    expect(lines.count).toBeGreaterThan(DEMO_PAGE_COUNT * 10);
    const texts = await t()
      .app.db.selectFrom('transcriptions')
      .select(({ fn }) => fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(texts.n)).toBe(lines.count);

    const classes = await t().app.db.selectFrom('ml_classes').select('name').execute();
    expect(classes.map((c) => c.name).sort()).toEqual([...DEMO_CLASSES].sort());
    const classified = await t()
      .app.db.selectFrom('classifications')
      .select('element_id')
      .execute();
    expect(classified).toHaveLength(DEMO_PAGE_COUNT);
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
