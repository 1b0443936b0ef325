import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../../server/cli';
import { Client, createTestUser, describeEachDialect, type TestApp } from './harness';

const PAGE_XML = `<?xml version="1.0" encoding="UTF-8"?>
<PcGts xmlns="http://schema.primaresearch.org/PAGE/gts/pagecontent/2013-07-15">
  <Page imageFilename="scans/folio-1.png" imageWidth="400" imageHeight="300">
    <TextRegion id="r1" type="paragraph">
      <Coords points="10,10 390,10 390,140 10,140"/>
      <TextLine id="l1"><Coords points="20,20 380,20 380,60 20,60"/>
        <TextEquiv><Unicode>Item a Pierre Lebrun</Unicode></TextEquiv></TextLine>
      <TextLine id="l2"><Coords points="20,70 380,70 380,110 20,110"/>
        <TextEquiv><Unicode>  </Unicode></TextEquiv></TextLine>
    </TextRegion>
  </Page>
</PcGts>`;

describeEachDialect('npm run cli -- import', ({ t }) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folia-cli-import-'));
  let out: string[];
  let err: string[];

  async function cli(argv: string[], env: Record<string, string> = {}): Promise<number> {
    const { config }: TestApp = t();
    out = [];
    err = [];
    return runCli(
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
  }

  beforeAll(async () => {
    fs.mkdirSync(path.join(dir, 'register', 'scans'), { recursive: true });
    await sharp({ create: { width: 400, height: 300, channels: 3, background: '#eee' } })
      .png()
      .toFile(path.join(dir, 'register', 'scans', 'folio-1.png'));
    fs.writeFileSync(path.join(dir, 'register', 'folio-1.xml'), PAGE_XML);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('creates the project when missing, imports into it and prints its id', async () => {
    const admin = await createTestUser(t().app, { admin: true });
    const code = await cli(['import', 'register', '--corpus', 'Registers'], { INIT_CWD: dir });
    expect(err).toEqual([]);
    expect(code).toBe(0);
    const corpus = await t()
      .app.db.selectFrom('corpora')
      .selectAll()
      .where('name', '=', 'Registers')
      .executeTakeFirstOrThrow();
    expect(out[0]).toBe(`Created project "Registers": ${corpus.id}`);
    expect(out).toContain(
      'Imported 1 folder, 1 page, 1 region, 2 lines, 1 transcription, 1 image.',
    );
    expect(out.at(-1)).toBe(`Project id: ${corpus.id}`);

    // The first site admin administers the new project and sees the page with its lines.
    const client = new Client(t().app, admin.token);
    const list = await client.get(`/api/v1/corpus/${corpus.id}/elements/?type=text_line`);
    expect(list.json().count).toBe(2);
    const corpusJson = (await client.get(`/api/v1/corpus/${corpus.id}/`)).json();
    expect(corpusJson.rights).toContain('admin');
  });

  it('imports again into the same project found by its name', async () => {
    const code = await cli(['import', path.join(dir, 'register'), '--corpus', 'Registers']);
    expect(code).toBe(0);
    expect(out[0]).toMatch(/^Using project "Registers": /);
    const corpora = await t()
      .app.db.selectFrom('corpora')
      .select('id')
      .where('name', '=', 'Registers')
      .execute();
    expect(corpora).toHaveLength(1);
  });

  it('refuses a missing path, a missing --corpus and an unknown parent, changing nothing', async () => {
    const before = await t().app.db.selectFrom('elements').select('id').execute();
    expect(await cli(['import', path.join(dir, 'nope'), '--corpus', 'Registers'])).toBe(1);
    expect(err.join('\n')).toContain('Nothing to import at');
    expect(await cli(['import', dir])).toBe(1);
    expect(err.join('\n')).toContain('import: --corpus is required.');
    expect(
      await cli([
        'import',
        dir,
        '--corpus',
        'Registers',
        '--parent',
        '00000000-0000-4000-8000-000000000000',
      ]),
    ).toBe(1);
    expect(err.join('\n')).toContain('--parent: no element 00000000-0000-4000-8000-000000000000');
    const after = await t().app.db.selectFrom('elements').select('id').execute();
    expect(after).toHaveLength(before.length);
  });
});
