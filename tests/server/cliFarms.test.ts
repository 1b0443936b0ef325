import { expect, it } from 'vitest';
import { runCli } from '../../server/cli';
import { describeEachDialect, type TestApp } from './harness';

async function cli(t: () => TestApp, argv: string[]) {
  const { config } = t();
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(
    argv,
    { FOLIA_DATA_DIR: config.dataDir, DATABASE_URL: config.databaseUrl ?? '', FOLIA_LOG: '0' },
    { out: (line) => out.push(line), err: (line) => err.push(line) },
    { databaseSchema: config.databaseSchema },
  );
  return { code, out, err };
}

describeEachDialect('npm run cli -- farms', ({ t }) => {
  it("prints each farm's name, id and token, and the token registers an agent", async () => {
    const app = t().app;
    await app.db
      .insertInto('farms')
      .values({
        id: '0f6f7a54-7d2a-4c55-9b1e-3a8c1a3c2b10',
        name: 'Attic GPUs',
        token: 'attic-secret',
        created: new Date().toISOString(),
      })
      .execute();
    const run = await cli(t, ['farms']);
    expect(run.code).toBe(0);
    expect(run.err).toEqual([]);
    expect(run.out).toHaveLength(2);
    expect(run.out[0]).toBe('Attic GPUs\t0f6f7a54-7d2a-4c55-9b1e-3a8c1a3c2b10\tattic-secret');
    const [name, id, token] = run.out[1]!.split('\t');
    expect(name).toBe('Default farm');
    const registered = await app.inject({
      method: 'POST',
      url: '/api/v1/ponos/agent/register/',
      headers: { authorization: `Farm ${token}` },
      payload: { hostname: 'from-the-cli', slots: 1 },
    });
    expect(registered.statusCode).toBe(201);
    expect(registered.json().farm).toEqual({ id, name: 'Default farm' });
  });

  it('is listed in the usage and refuses stray flags', async () => {
    expect((await cli(t, ['help'])).out.join('\n')).toContain('farms');
    const run = await cli(t, ['farms', '--all']);
    expect(run.code).toBe(1);
    expect(run.err.join('\n')).toContain("Unknown option '--all'");
  });
});

describeEachDialect('npm run cli -- farm-rate', ({ t }) => {
  it("sets a farm's hourly rate by name or id, and refuses a bad rate or farm", async () => {
    const rate = async (id: string) =>
      Number(
        (
          await t()
            .app.db.selectFrom('farms')
            .select('rate')
            .where('id', '=', id)
            .executeTakeFirstOrThrow()
        ).rate,
      );
    const farm = await t()
      .app.db.selectFrom('farms')
      .select('id')
      .where('name', '=', 'Default farm')
      .executeTakeFirstOrThrow();
    const byName = await cli(t, ['farm-rate', '--farm', 'Default farm', '--rate', '12.5']);
    expect(byName).toEqual({
      code: 0,
      out: [`Default farm\t${farm.id}\t12.50 an hour`],
      err: [],
    });
    expect(await rate(farm.id)).toBe(1250);
    expect((await cli(t, ['farm-rate', '--farm', farm.id, '--rate', '3'])).code).toBe(0);
    expect(await rate(farm.id)).toBe(300);

    const negative = await cli(t, ['farm-rate', '--farm', farm.id, '--rate=-1']);
    expect(negative.code).toBe(1);
    expect(negative.err.join('\n')).toContain(
      '--rate: Ensure this value is greater than or equal to 0.',
    );
    const unknown = await cli(t, ['farm-rate', '--farm', 'Nowhere', '--rate', '1']);
    expect(unknown.code).toBe(1);
    expect(unknown.err.join('\n')).toContain('No farm named or numbered "Nowhere".');
    expect((await cli(t, ['farm-rate', '--farm', farm.id])).err.join('\n')).toContain(
      '--rate is required.',
    );
    expect(await rate(farm.id)).toBe(300);
  });
});
