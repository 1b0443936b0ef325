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
