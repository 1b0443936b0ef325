import { beforeAll, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { describeEachDialect, Client } from '../harness';
import { makeActorsAndProjects, type Actors } from '../actors';
import { safeArtifactPath, storeArtifact } from '../../../server/services/tasks/artifacts';
import { claim, makeProcess, registerAgent, type Agent, type MadeProcess } from './fixtures';

describeEachDialect('Task artifacts', ({ t }) => {
  let actors: Actors;
  let made: MadeProcess;
  let agent: Agent;
  let taskId: string;
  beforeAll(async () => {
    const app = t().app;
    const setup = await makeActorsAndProjects(app);
    actors = setup.actors;
    made = await makeProcess(app, setup.privateId, actors.owner.id, [{ slug: 'export' }]);
    agent = await registerAgent(app, made.farm, 'exporter', 1);
    await claim(app, agent, 1);
    taskId = made.tasks.export!;
  });

  const upload = (artifactPath: string, payload: string | Buffer, headers = agent.headers) =>
    t().app.inject({
      method: 'PUT',
      url: `/api/v1/ponos/task/${taskId}/artifacts/${artifactPath}`,
      headers: { ...headers, 'content-type': 'text/csv' },
      payload,
    });

  it('stores what the agent uploads and lets readers list and download it', async () => {
    const stored = await upload('results/pages.csv', 'id,name\n1,Page 1\n');
    expect(stored.statusCode).toBe(201);
    expect(stored.json()).toMatchObject({
      path: 'results/pages.csv',
      size: 17,
      content_type: 'text/csv',
      s3_put_url: null,
    });
    const file = path.join(t().config.dataDir, 'artifacts', taskId, 'results', 'pages.csv');
    expect(fs.readFileSync(file, 'utf8')).toBe('id,name\n1,Page 1\n');

    // The same path again replaces the file.
    expect((await upload('results/pages.csv', 'id\n')).json().size).toBe(3);
    const guest = new Client(t().app, actors.guest.token);
    const list = await guest.get(`task/${taskId}/artifacts/`);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toHaveLength(1);
    expect(list.json()[0]).toMatchObject({ path: 'results/pages.csv', size: 3 });
    const download = await guest.get(`task/${taskId}/artifact/results/pages.csv`);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('text/csv');
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="pages.csv"; filename*=UTF-8''pages.csv`,
    );
    expect(download.headers['x-content-type-options']).toBe('nosniff');
    expect(download.body).toBe('id\n');
    expect((await guest.get(`task/${taskId}/artifact/results/other.csv`)).statusCode).toBe(404);
    const outsider = new Client(t().app, actors.outsider.token);
    expect((await outsider.get(`task/${taskId}/artifacts/`)).statusCode).toBe(404);
    expect((await outsider.get(`task/${taskId}/artifact/results/pages.csv`)).statusCode).toBe(404);
  });

  it('downloads an artifact whatever its name', async () => {
    const stored = await upload('r%C3%A9sultats%20%C3%A9t%C3%A9.csv', 'a\n');
    expect(stored.statusCode).toBe(201);
    expect(stored.json().path).toBe('résultats été.csv');
    const download = await new Client(t().app, actors.owner.token).get(
      `task/${taskId}/artifact/r%C3%A9sultats%20%C3%A9t%C3%A9.csv`,
    );
    expect(download.statusCode).toBe(200);
    expect(download.body).toBe('a\n');
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="r_sultats _t_.csv"; filename*=UTF-8''r%C3%A9sultats%20%C3%A9t%C3%A9.csv`,
    );
  });

  it('refuses paths that could leave the task folder, and writes nothing', async () => {
    for (const bad of [
      '../escape.txt',
      'a/../../escape.txt',
      'a//b.txt',
      'a/%00b.txt',
      '%2Fetc%2Fx',
    ]) {
      const response = await upload(bad, 'nope');
      expect([bad, response.statusCode]).toEqual([bad, expect.toBeOneOf([400, 404])]);
    }
    const traversal = await upload('a/%2E%2E/%2E%2E/escape.txt', 'nope');
    expect(traversal.statusCode).toBe(404);
    // What a raw HTTP client could send without normalizing its path:
    for (const raw of ['../escape.txt', 'a/../../escape.txt', '/etc/escape', 'a\\..\\b']) {
      await expect(
        storeArtifact(t().app.db, t().config.dataDir, taskId, raw, 'text/plain', undefined, '0'),
      ).rejects.toMatchObject({ statusCode: 400, errors: [{ attr: 'path' }] });
    }
    expect(fs.existsSync(path.join(t().config.dataDir, 'artifacts', 'escape.txt'))).toBe(false);
    expect(fs.existsSync(path.join(t().config.dataDir, 'escape.txt'))).toBe(false);
  });

  it('reads only relative paths of plain names as artifact paths', () => {
    expect(safeArtifactPath('results/pages.csv')).toBe('results/pages.csv');
    for (const bad of ['', '/abs', '..', 'a/..', 'a//b', './a', 'a/./b', 'a\\b', 'a\u0000b']) {
      expect(safeArtifactPath(bad)).toBeNull();
    }
  });

  it('refuses uploads from an agent that does not hold the task', async () => {
    const other = await registerAgent(t().app, made.farm, 'stranger', 1);
    const response = await upload('stolen.txt', 'x', other.headers);
    expect(response.statusCode).toBe(403);
    const list = await new Client(t().app, actors.owner.token).get(`task/${taskId}/artifacts/`);
    expect(list.json().map((item: { path: string }) => item.path)).not.toContain('stolen.txt');
  });
});
