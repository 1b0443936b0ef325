import { expect, it } from 'vitest';
import { runCli } from '../../server/cli';
import { Client, describeEachDialect, type TestApp } from './harness';

interface Run {
  code: number;
  out: string[];
  err: string[];
}

/** Runs the CLI against the same database as the suite's app. */
async function cli(
  t: () => TestApp,
  argv: string[],
  env: Record<string, string> = {},
): Promise<Run> {
  const { config } = t();
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(
    argv,
    {
      FOLIA_DATA_DIR: config.dataDir,
      DATABASE_URL: config.databaseUrl ?? '',
      FOLIA_LOG: '0',
      ...env,
    },
    { out: (line) => out.push(line), err: (line) => err.push(line) },
    { databaseSchema: config.databaseSchema },
  );
  return { code, out, err };
}

async function usersWithEmail(t: () => TestApp, email: string): Promise<number> {
  const rows = await t()
    .app.db.selectFrom('users')
    .select('id')
    .where('email', '=', email)
    .execute();
  return rows.length;
}

describeEachDialect('npm run cli', ({ t }) => {
  it('prints the usage for help and for no command', async () => {
    for (const argv of [[], ['help']]) {
      const run = await cli(t, argv);
      expect(run.code).toBe(0);
      expect(run.err).toEqual([]);
      const text = run.out.join('\n');
      expect(text).toContain('Usage: npm run cli -- <command>');
      expect(text).toContain('createsuperuser --email E --password P [--display-name N]');
      expect(text).toContain('createuser --email E --password P [--display-name N]');
    }
  });

  it('refuses an unknown command', async () => {
    const run = await cli(t, ['frobnicate']);
    expect(run.code).toBe(1);
    expect(run.out).toEqual([]);
    expect(run.err.join('\n')).toContain('Unknown command "frobnicate".');
  });

  it('createsuperuser makes a verified site admin who can log in', async () => {
    const run = await cli(t, [
      'createsuperuser',
      '--email',
      'Boss@Example.com',
      '--password',
      'run the whole site',
      '--display-name',
      'The Boss',
    ]);
    expect(run).toEqual({ code: 0, out: ['Created superuser boss@example.com'], err: [] });

    const client = new Client(t().app);
    const response = await client.post('user/login/', {
      email: 'boss@example.com',
      password: 'run the whole site',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      email: 'boss@example.com',
      display_name: 'The Boss',
      is_admin: true,
      verified_email: true,
      has_usable_password: true,
    });
  });

  it('createuser makes a verified non-admin, named after the e-mail by default', async () => {
    const run = await cli(t, [
      'createuser',
      '--email=worker@example.com',
      '--password=plain old user',
    ]);
    expect(run).toEqual({ code: 0, out: ['Created user worker@example.com'], err: [] });

    const response = await new Client(t().app).post('user/login/', {
      email: 'worker@example.com',
      password: 'plain old user',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      display_name: 'worker',
      is_admin: false,
      verified_email: true,
    });
  });

  it('refuses a used e-mail, whatever its case, and leaves the first account alone', async () => {
    const first = await cli(t, [
      'createuser',
      '--email',
      'twice@example.com',
      '--password',
      'first of two',
    ]);
    expect(first.code).toBe(0);
    const second = await cli(t, [
      'createsuperuser',
      '--email',
      'TWICE@example.com',
      '--password',
      'second of two',
    ]);
    expect(second.code).toBe(1);
    expect(second.out).toEqual([]);
    expect(second.err).toEqual([
      'createsuperuser: --email: A user with this email already exists.',
    ]);
    expect(await usersWithEmail(t, 'twice@example.com')).toBe(1);
    const row = await t()
      .app.db.selectFrom('users')
      .select('is_admin')
      .where('email', '=', 'twice@example.com')
      .executeTakeFirst();
    expect(row?.is_admin).toBe(0);
  });

  it('refuses a malformed e-mail and a password breaking the rules', async () => {
    const badEmail = await cli(t, [
      'createuser',
      '--email',
      'not-an-email',
      '--password',
      'good enough pass',
    ]);
    expect(badEmail.code).toBe(1);
    expect(badEmail.err).toEqual(['createuser: --email: Enter a valid email address.']);

    const weak = await cli(t, ['createuser', '--email', 'weak@example.com', '--password', '1234']);
    expect(weak.code).toBe(1);
    expect(weak.err).toEqual([
      'createuser: --password: This password is too short. It must contain at least 8 characters.',
      'createuser: --password: This password is entirely numeric.',
    ]);
    expect(await usersWithEmail(t, 'weak@example.com')).toBe(0);
  });

  it('refuses missing and unknown flags with the usage', async () => {
    const noPassword = await cli(t, ['createuser', '--email', 'nopass@example.com']);
    expect(noPassword.code).toBe(1);
    expect(noPassword.err.join('\n')).toContain('createuser: --password is required.');
    expect(noPassword.err.join('\n')).toContain('Usage: npm run cli -- createuser --email E');

    const noEmail = await cli(t, ['createsuperuser', '--password', 'long enough pass']);
    expect(noEmail.code).toBe(1);
    expect(noEmail.err.join('\n')).toContain('createsuperuser: --email is required.');

    const unknown = await cli(t, [
      'createuser',
      '--email',
      'flags@example.com',
      '--password',
      'long enough pass',
      '--admin',
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.err.join('\n')).toContain("Unknown option '--admin'");
    expect(await usersWithEmail(t, 'nopass@example.com')).toBe(0);
    expect(await usersWithEmail(t, 'flags@example.com')).toBe(0);
  });

  it('reports a bad configuration as an error, not a crash', async () => {
    const run = await cli(
      t,
      ['createuser', '--email', 'conf@example.com', '--password', 'long enough pass'],
      { DATABASE_URL: 'mysql://localhost/nope' },
    );
    expect(run.code).toBe(1);
    expect(run.err).toEqual([
      'createuser: DATABASE_URL must be a postgres:// URL (leave it unset for SQLite)',
    ]);
  });
});
