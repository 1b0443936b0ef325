import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { runCli } from '../../../server/cli';
import { describeEachDialect, type TestApp } from '../harness';
import { clientAs, makeModelCast, type ModelCast } from './fixtures';

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

describeEachDialect('npm run cli -- import-model', ({ t }) => {
  let cast: ModelCast;
  let archive: string;
  const content = Buffer.from('model weights, compressed');

  beforeAll(async () => {
    cast = await makeModelCast(t().app);
    archive = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'folia-model-')), 'model.tar.zst');
    fs.writeFileSync(archive, content);
  });

  it('stores the file as a new available version and prints its id', async () => {
    const run = await cli(t, [
      'import-model',
      '--name',
      'CLI model',
      '--file',
      archive,
      '--tag',
      'v1',
      '--owner',
      cast.owner.email,
    ]);
    expect(run).toMatchObject({ code: 0, err: [] });
    expect(run.out).toHaveLength(1);
    const versionId = run.out[0]!;
    const owner = clientAs(t().app, cast, 'owner');
    const version = (await owner.get(`modelversion/${versionId}/`)).json();
    expect(version).toMatchObject({
      state: 'available',
      tag: 'v1',
      size: content.length,
      hash: createHash('sha256').update(content).digest('hex'),
      model: { name: 'CLI model' },
    });
    expect((await owner.get(`model/${version.model_id}/`)).json().rights).toEqual([
      'read',
      'write',
      'admin',
    ]);
    const download = await owner.get(`modelversion/${versionId}/download/`);
    expect(download.rawPayload.equals(content)).toBe(true);

    // A second import adds a version to the same model.
    const second = await cli(t, ['import-model', '--name', 'CLI model', '--file', archive]);
    expect(second.code).toBe(0);
    const versions = (await owner.get(`model/${version.model_id}/versions/`)).json();
    expect(versions.results.map((v: { id: string }) => v.id)).toEqual([second.out[0], versionId]);
  });

  it('refuses missing flags, missing files, unknown owners and taken tags', async () => {
    const before = await t().app.db.selectFrom('model_versions').select('id').execute();
    const cases: [string[], string][] = [
      [['import-model', '--file', archive], '--name is required.'],
      [['import-model', '--name', 'X'], '--file is required.'],
      [['import-model', '--name', 'X', '--file', '/nonexistent/file'], '--file: cannot read'],
      [['import-model', '--name', 'X', '--file', path.dirname(archive)], 'is not a file'],
      [
        ['import-model', '--name', 'X', '--file', archive, '--owner', 'nobody@example.com'],
        '--owner: no user with the email nobody@example.com.',
      ],
      [
        ['import-model', '--name', 'CLI model', '--file', archive, '--tag', 'v1'],
        '--tag: model CLI model already has a version tagged v1.',
      ],
      [['import-model', '--name', 'x'.repeat(101), '--file', archive], 'at most 100 characters'],
    ];
    for (const [argv, message] of cases) {
      const run = await cli(t, argv);
      expect([run.code, run.err.join('\n')]).toEqual([1, expect.stringContaining(message)]);
      expect(run.out).toEqual([]);
    }
    const after = await t().app.db.selectFrom('model_versions').select('id').execute();
    expect(after).toHaveLength(before.length);
  });

  it('is listed in the usage', async () => {
    const run = await cli(t, ['help']);
    expect(run.out.join('\n')).toContain(
      'import-model --name N --file F [--tag T] [--owner EMAIL]',
    );
  });
});
