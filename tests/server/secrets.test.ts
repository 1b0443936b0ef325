import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { Client, describeEachDialect } from './harness';
import { clientFor, makeActors, makeCorpus, type Actors } from './actors';
import { NOT_AUTHENTICATED, NOT_FOUND, UUID, denied, validation } from './expectedErrors';
import { claim, finish, makeProcess, registerAgent } from './tasks/fixtures';
import { client, makeWorkerCast, publishWorker } from './workers/fixtures';
import { NAME_BAD_SEGMENT, NAME_EMPTY_SEGMENT } from '../../server/services/secrets/names';
import { NAME_TAKEN, NOT_DECLARED } from '../../server/services/secrets/secrets';

const KEY = 'a3'.repeat(32);
const ENTERPRISE = { FOLIA_FEATURES: 'enterprise', FOLIA_SECRET_KEY: KEY };
const ONLY_ADMINS = denied('Only site administrators can do this.');

/** Values no file or column may ever hold in clear. */
const OCR_KEY = 'sk-live-0cr-5ecret-value-7f3a91';
const OTHER_VALUE = 'another-5ecret-for-somebody-else-42';

it('refuses to start the enterprise edition without a valid FOLIA_SECRET_KEY', () => {
  expect(() => loadConfig({ FOLIA_FEATURES: 'enterprise' })).toThrow(
    'FOLIA_SECRET_KEY is required with the enterprise feature: 64 hexadecimal characters ' +
      '(32 bytes, e.g. from `openssl rand -hex 32`) to encrypt secrets at rest',
  );
  expect(() =>
    loadConfig({ FOLIA_FEATURES: 'enterprise', FOLIA_SECRET_KEY: 'not-a-key-at-all' }),
  ).toThrow(
    'FOLIA_SECRET_KEY must be exactly 64 hexadecimal characters (32 bytes, e.g. from ' +
      '`openssl rand -hex 32`); the one given has 16 characters',
  );
  expect(loadConfig({ FOLIA_FEATURES: 'enterprise', FOLIA_SECRET_KEY: KEY }).secretsKey).toEqual(
    Buffer.from(KEY, 'hex'),
  );
  // The community edition keeps no secrets and needs no key.
  expect(loadConfig({ FOLIA_FEATURES: 'search' }).secretsKey).toBeNull();
});

/** Every file under a folder, read whole. */
function filesUnder(folder: string): string[] {
  return fs.readdirSync(folder, { recursive: true, encoding: 'utf8' }).flatMap((entry) => {
    const file = path.join(folder, entry);
    return fs.statSync(file).isFile() ? [file] : [];
  });
}

describeEachDialect(
  'Secrets',
  ({ t }) => {
    let actors: Actors;
    const as = (role: keyof Actors | 'anonymous') => clientFor(t().app, actors, role);
    const count = async () =>
      Number(
        (
          await t()
            .app.db.selectFrom('secrets')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );

    it('are created, listed by name, revealed and deleted by site admins only', async () => {
      actors = await makeActors(t().app);
      const admin = as('siteAdmin');
      const created = await admin.post('secrets/', { name: 'ocr/service/key', content: OCR_KEY });
      expect(created.statusCode).toBe(201);
      const body = created.json();
      expect(body).toEqual({
        id: expect.stringMatching(UUID),
        name: 'ocr/service/key',
        created: expect.any(String),
        updated: expect.any(String),
      });
      expect(JSON.stringify(body)).not.toContain(OCR_KEY);
      expect(
        (await admin.post('secrets/', { name: 'zz/other', content: OTHER_VALUE })).statusCode,
      ).toBe(201);

      const list = await admin.get('secrets/');
      expect(list.statusCode).toBe(200);
      expect(list.json()).toEqual({
        count: 2,
        number: 1,
        next: null,
        previous: null,
        results: [
          { id: body.id, name: 'ocr/service/key', created: body.created, updated: body.updated },
          expect.objectContaining({ name: 'zz/other' }),
        ],
      });
      expect(list.body).not.toContain(OCR_KEY);
      const page = await admin.get('secrets/?page_size=1&page=2');
      expect(page.json().results.map((s: { name: string }) => s.name)).toEqual(['zz/other']);

      const revealed = await admin.get('secret/ocr/service/key');
      expect(revealed.statusCode).toBe(200);
      expect(revealed.json()).toEqual({ id: body.id, name: 'ocr/service/key', content: OCR_KEY });
      expect(revealed.headers['cache-control']).toBe('no-store');
      // With the API's trailing slash, and by id as modern worker configurations name them.
      expect((await admin.get('secret/ocr/service/key/')).json().content).toBe(OCR_KEY);
      expect((await admin.get(`secret/${body.id}`)).json().content).toBe(OCR_KEY);
      expect((await admin.get('secret/ocr/service')).json()).toEqual(NOT_FOUND);

      for (const role of ['owner', 'outsider', 'unverifiedAdmin'] as const) {
        const client = as(role);
        const tries = [
          await client.get('secrets/'),
          await client.post('secrets/', { name: `by/${role}`, content: 'x' }),
          await client.get('secret/ocr/service/key'),
          await client.delete('secret/ocr/service/key'),
        ];
        for (const response of tries) {
          expect(response.statusCode).toBe(403);
          expect(response.json()).toEqual(ONLY_ADMINS);
        }
      }
      const anonymous = new Client(t().app);
      for (const response of [
        await anonymous.get('secrets/'),
        await anonymous.post('secrets/', { name: 'by/anonymous', content: 'x' }),
        await anonymous.get('secret/ocr/service/key'),
        await anonymous.delete('secret/ocr/service/key'),
      ]) {
        expect(response.statusCode).toBe(401);
        expect(response.json()).toEqual(NOT_AUTHENTICATED);
      }
      expect(await count()).toBe(2);

      const gone = await admin.delete('secret/zz/other');
      expect(gone.statusCode).toBe(204);
      expect((await admin.get('secret/zz/other')).statusCode).toBe(404);
      expect((await admin.delete('secret/zz/other')).json()).toEqual(NOT_FOUND);
      expect(await count()).toBe(1);
    });

    it('refuse bad names and taken names, changing nothing', async () => {
      const admin = as('siteAdmin');
      const before = await count();
      const refused = [
        ['', validation('name', 'This field may not be blank.', 'blank')],
        ['ocr//key', validation('name', NAME_EMPTY_SEGMENT)],
        ['/ocr/key', validation('name', NAME_EMPTY_SEGMENT)],
        ['ocr/key/', validation('name', NAME_EMPTY_SEGMENT)],
        ['ocr/my key', validation('name', NAME_BAD_SEGMENT)],
        ['ocr/../key', validation('name', NAME_BAD_SEGMENT)],
        ['ocr/clé', validation('name', NAME_BAD_SEGMENT)],
        [
          'a'.repeat(251),
          validation('name', 'Ensure this field has no more than 250 characters.', 'max_length'),
        ],
        ['ocr/service/key', validation('name', NAME_TAKEN, 'unique')],
      ] as const;
      for (const [name, error] of refused) {
        const response = await admin.post('secrets/', { name, content: 'value' });
        expect(response.statusCode, name).toBe(400);
        expect(response.json(), name).toEqual(error);
      }
      const missing = await admin.post('secrets/', { name: 'ocr/nothing' });
      expect(missing.json()).toEqual(validation('content', 'This field is required.', 'required'));
      const tooLong = await admin.post('secrets/', {
        name: 'ocr/big',
        content: 'x'.repeat(65_537),
      });
      expect(tooLong.json()).toEqual(
        validation('content', 'Ensure this field has no more than 65536 characters.', 'max_length'),
      );
      expect(await count()).toBe(before);
      // The value that was there is untouched by the refused duplicate.
      expect((await admin.get('secret/ocr/service/key')).json().content).toBe(OCR_KEY);
    });

    it('are read by a running task only as its worker version declares them', async () => {
      const app = t().app;
      const admin = as('siteAdmin');
      await admin.post('secrets/', { name: 'zz/other', content: OTHER_VALUE });
      const project = await makeCorpus(app, actors, { name: 'Secret readers' });
      // Even a site admin's process gets no more than its worker version declares.
      const declaring = await makeProcess(app, project, actors.siteAdmin.id, [{ slug: 'ocr' }]);
      const other = await makeProcess(app, project, actors.siteAdmin.id, [{ slug: 'other' }]);
      const version = await app.db
        .selectFrom('worker_versions')
        .select('configuration')
        .where('id', '=', declaring.workerVersionId)
        .executeTakeFirstOrThrow();
      const configuration = {
        ...JSON.parse(version.configuration),
        secrets: ['ocr/service/key', 'ocr/absent'],
      };
      await app.db
        .updateTable('worker_versions')
        .set({ configuration: JSON.stringify(configuration) })
        .where('id', '=', declaring.workerVersionId)
        .execute();
      const agent = await registerAgent(app, declaring.farm, 'secret-host', 1);
      const otherAgent = await registerAgent(app, other.farm, 'other-host', 1);
      const tasks = [...(await claim(app, agent)), ...(await claim(app, otherAgent))];
      const tokenOf = (id: string) => tasks.find((task) => task.id === id)!.token;
      const asTask = (id: string) => ({ authorization: `Ponos ${tokenOf(id)}` });
      const get = (id: string, url: string) =>
        app.inject({ method: 'GET', url: `/api/v1/${url}`, headers: asTask(id) });
      const ocr = declaring.tasks.ocr!;
      const stranger = other.tasks.other!;

      const read = await get(ocr, 'secret/ocr/service/key');
      expect(read.statusCode).toBe(200);
      expect(read.json()).toEqual({
        id: expect.stringMatching(UUID),
        name: 'ocr/service/key',
        content: OCR_KEY,
      });
      // Not declared, declared but missing, or another task's: the same refusal.
      for (const [task, url] of [
        [ocr, 'secret/zz/other'],
        [ocr, 'secret/ocr/absent'],
        [stranger, 'secret/ocr/service/key'],
        [stranger, `secret/${read.json().id}`],
      ] as const) {
        const response = await get(task, url);
        expect(response.statusCode, url).toBe(403);
        expect(response.json()).toEqual(denied(NOT_DECLARED));
      }
      expect((await get(ocr, 'secrets/')).json()).toEqual(ONLY_ADMINS);
      const deleted = await app.inject({
        method: 'DELETE',
        url: '/api/v1/secret/ocr/service/key',
        headers: asTask(ocr),
      });
      expect(deleted.statusCode).toBe(403);

      // Once the task has ended its token opens nothing.
      expect((await finish(app, agent, ocr, 'completed')).statusCode).toBe(200);
      expect((await get(ocr, 'secret/ocr/service/key')).statusCode).toBe(401);
    });

    it('hold no value in clear in the database or anywhere in the data dir', async () => {
      const rows = await t().app.db.selectFrom('secrets').selectAll().execute();
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) {
        const raw = JSON.stringify(row);
        for (const value of [OCR_KEY, OTHER_VALUE]) {
          expect(raw).not.toContain(value);
          expect(Buffer.from(row.content, 'base64').toString('latin1')).not.toContain(value);
        }
      }
      const dataDir = t().config.dataDir;
      const files = filesUnder(dataDir);
      for (const file of files) {
        const bytes = fs.readFileSync(file);
        for (const value of [OCR_KEY, OTHER_VALUE]) {
          expect(bytes.includes(Buffer.from(value)), `${file} holds a secret`).toBe(false);
        }
      }
    });
  },
  ENTERPRISE,
);

describeEachDialect('Secrets a worker version declares', ({ t }) => {
  it('are a list of secret names, checked when the version is published', async () => {
    const cast = await makeWorkerCast(t().app);
    const manager = client(t().app, cast, 'manager');
    const worker = await publishWorker(manager);
    const publish = (secrets: unknown) =>
      manager.post(`workers/${worker.id}/versions/`, { configuration: { secrets } });
    const attr = 'configuration.secrets';
    for (const [secrets, detail] of [
      ['ocr/key', 'Expected a list of secret names.'],
      [['ocr/key', 3], 'Expected a list of secret names.'],
      [['ocr/key', 'ocr//key'], `"ocr//key": ${NAME_EMPTY_SEGMENT}`],
      [['ocr/a key'], `"ocr/a key": ${NAME_BAD_SEGMENT}`],
    ] as const) {
      const response = await publish(secrets);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(validation(attr, detail));
    }
    const versions = () =>
      t()
        .app.db.selectFrom('worker_versions')
        .select('configuration')
        .where('worker_id', '=', worker.id)
        .execute();
    expect(await versions()).toEqual([]);
    const published = await publish(['ocr/service/key', 'htr/token']);
    expect(published.statusCode).toBe(201);
    expect(published.json().configuration).toEqual({
      secrets: ['ocr/service/key', 'htr/token'],
    });
  });
});

describeEachDialect('Secrets in the community edition', ({ t }) => {
  it('do not exist', async () => {
    const actors = await makeActors(t().app);
    const admin = clientFor(t().app, actors, 'siteAdmin');
    expect((await admin.get('secrets/')).json()).toEqual(NOT_FOUND);
    expect((await admin.post('secrets/', { name: 'a/b', content: 'c' })).statusCode).toBe(404);
    expect((await admin.get('secret/a/b')).statusCode).toBe(404);
  });
});
