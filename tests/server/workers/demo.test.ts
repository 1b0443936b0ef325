import { expect, it } from 'vitest';
import { seedDemo, DEMO_ADMIN_EMAIL } from '../../../server/demo/index';
import { DEMO_WORKER_SLUG } from '../../../server/demo/worker';
import { Client, describeEachDialect } from '../harness';

describeEachDialect('the demo worker', ({ t }) => {
  it('is there on a fresh server, with a configurable version and a configuration', async () => {
    await seedDemo(t().app);
    const admin = await t()
      .app.db.selectFrom('users')
      .select('auth_token')
      .where('email', '=', DEMO_ADMIN_EMAIL)
      .executeTakeFirstOrThrow();
    const api = new Client(t().app, admin.auth_token);
    const workers = (await api.get(`/api/v1/workers/?name=${DEMO_WORKER_SLUG}`)).json();
    expect(workers.count).toBe(1);
    const worker = workers.results[0];
    expect(worker).toMatchObject({ name: 'Demo recognizer', type: 'recognizer' });
    const recommended = await api.get(`/api/v1/workers/${worker.id}/versions/recommended/`);
    expect(recommended.statusCode).toBe(200);
    const fields = (
      await api.get(`/api/v1/workers/versions/${recommended.json().id}/fields/`)
    ).json();
    expect(new Set(fields.results.map((field: { type: string }) => field.type))).toEqual(
      new Set(['int', 'float', 'enum', 'text', 'list', 'model', 'group', 'bool', 'dict']),
    );
    const configurations = (await api.get(`/api/v1/workers/${worker.id}/configurations/`)).json();
    expect(configurations.results).toEqual([
      expect.objectContaining({ name: 'Latin, large batches', archived: false }),
    ]);
  });
});
