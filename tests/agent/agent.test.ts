import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeEachDialect } from '../server/harness';
import { processState } from '../server/tasks/fixtures';
import { isAlive, root, waitFor } from './agentProcess';
import { fixture, scratchLeft, useAgentSuite } from './setup';

describeEachDialect('The agent', ({ t }) => {
  const suite = useAgentSuite(t);

  it('runs a task with the worker environment; its output reaches the log, its artifacts the server, its scratch folder goes', async () => {
    const pages = await suite.pages('Report page', 2);
    const made = await suite.process([{ slug: 'report', elements: pages }], fixture('report.mjs'));
    const agent = suite.agent({ farmToken: made.farm.token });
    const id = made.tasks.report!;
    const task = await suite.until(id, ['completed', 'failed', 'error']);
    expect(task.state).toBe('completed');

    const logs = (await suite.owner.get(`task/${id}/logs/`)).body;
    expect(logs).toContain('a line on stderr');
    expect(logs).toContain('[agent] Finished (exit code 0).');
    const facts = JSON.parse(/FACTS (.*)/.exec(logs)![1]!);
    expect(facts).toMatchObject({
      api_url: `${suite.url}/api/v1/`,
      task_id: id,
      process_id: made.processId,
      worker_run_id: made.workerRunId,
      corpus_id: suite.corpusId,
      has_token: true,
      farm_token_hidden: true,
      path_first: path.join(root, 'node_modules', '.bin'),
      elements: pages.map((page) => ({ id: page, type: 'page' })),
    });
    expect(facts.cwd).toBe(facts.ponos_data);
    expect(path.dirname(facts.cwd)).toBe(agent.workDir);

    const artifacts = await suite.owner.get(`task/${id}/artifacts/`);
    expect(artifacts.statusCode).toBe(200);
    const listed = artifacts.json<{ path: string; size: number; content_type: string }[]>();
    expect(listed.map(({ path, size, content_type }) => ({ path, size, content_type }))).toEqual(
      expect.arrayContaining([
        { path: 'result.json', size: 11, content_type: 'application/json' },
        { path: 'sub/notes.txt', size: 11, content_type: 'text/plain' },
      ]),
    );
    expect(listed).toHaveLength(2);
    const notes = await suite.owner.get(`task/${id}/artifact/sub/notes.txt`);
    expect(notes.statusCode).toBe(200);
    expect(notes.body).toBe('some notes\n');
    expect(scratchLeft(agent)).toEqual([]);
    expect(await processState(t().app, made.processId)).toBe('completed');
  });

  it('reports a command that exits non-zero as failed, and one that cannot start as error', async () => {
    const made = await suite.process(
      [{ slug: 'crash' }],
      ['node', '-e', 'console.error("it broke"); process.exit(3)'],
    );
    const missing = await suite.process([{ slug: 'missing' }], ['/no/such/program', '--flag']);
    suite.agent({ farmToken: made.farm.token });
    suite.agent({ farmToken: missing.farm.token });
    const crashed = await suite.until(made.tasks.crash!, ['completed', 'failed', 'error']);
    expect(crashed.state).toBe('failed');
    const crashLog = (await suite.owner.get(`task/${made.tasks.crash}/logs/`)).body;
    expect(crashLog).toContain('it broke');
    expect(crashLog).toContain('[agent] Finished (exit code 3).');
    const lost = await suite.until(missing.tasks.missing!, ['completed', 'failed', 'error']);
    expect(lost.state).toBe('error');
    expect((await suite.owner.get(`task/${missing.tasks.missing}/logs/`)).body).toContain(
      'Cannot run /no/such/program',
    );
  });

  it('stops a running task on request: SIGTERM, then SIGKILL of its whole group after 5 s', async () => {
    const made = await suite.process([{ slug: 'stubborn' }], fixture('stubborn.mjs'));
    const agent = suite.agent({ farmToken: made.farm.token });
    const id = made.tasks.stubborn!;
    await suite.until(id, ['running']);
    const pids = await waitFor('the program to start', async () => {
      const found = /pids (\d+) (\d+)/.exec((await suite.task(id)).logs ?? '');
      return found ? [Number(found[1]), Number(found[2])] : undefined;
    });
    expect(pids.every(isAlive)).toBe(true);
    const stopping = await suite.owner.patch(`task/${id}/`, { state: 'stopping' });
    expect(stopping.statusCode).toBe(200);
    const stopped = await suite.until(id, ['stopped', 'completed', 'failed', 'error'], 15_000);
    expect(stopped.state).toBe('stopped');
    expect(pids.some(isAlive)).toBe(false);
    const logs = (await suite.owner.get(`task/${id}/logs/`)).body;
    expect(logs).toContain('SIGTERM ignored');
    expect(logs).toContain('[agent] Stopped on request (signal SIGKILL).');
    expect(scratchLeft(agent)).toEqual([]);
  }, 40_000);

  it("lets two agents share one process' chunks: every task runs once", async () => {
    const pages = await suite.pages('Shared page', 16);
    const specs = Array.from({ length: 8 }, (_, i) => ({
      slug: `chunk_${i + 1}`,
      elements: pages.slice(i * 2, i * 2 + 2),
    }));
    const made = await suite.process(specs, fixture('transcribe.mjs'));
    const env = { FIXTURE_PAUSE_MS: '100' };
    const first = suite.agent({ farmToken: made.farm.token, slots: 2, hostname: 'one', env });
    const second = suite.agent({ farmToken: made.farm.token, slots: 2, hostname: 'two', env });
    const ids = Object.values(made.tasks);
    for (const id of ids)
      expect((await suite.until(id, ['completed', 'failed', 'error'], 60_000)).state).toBe(
        'completed',
      );

    const ranBy = (agent: typeof first) =>
      ids.filter((id) => agent.output().includes(`running task ${id}`));
    const byFirst = ranBy(first);
    const bySecond = ranBy(second);
    expect(byFirst.filter((id) => bySecond.includes(id))).toEqual([]);
    expect([...byFirst, ...bySecond].sort()).toEqual([...ids].sort());
    expect(byFirst.length).toBeGreaterThan(0);
    expect(bySecond.length).toBeGreaterThan(0);
    for (const id of ids) {
      const task = await suite.task(id);
      expect(task.attempts).toBe(1);
      expect(task.logs!.match(/\[agent\] Finished/g)).toHaveLength(1);
    }
    const rows = await t()
      .app.db.selectFrom('transcriptions')
      .select('element_id')
      .where('worker_run_id', '=', made.workerRunId)
      .execute();
    expect(rows.map((row) => row.element_id).sort()).toEqual([...pages].sort());
  }, 90_000);

  describe('leaving', () => {
    it('on SIGTERM stops claiming, lets the running task finish, reports it and exits 0', async () => {
      const pages = await suite.pages('Leaving page', 3);
      const made = await suite.process(
        [{ slug: 'last' }, { slug: 'never', elements: [] }].map((spec, i) =>
          i === 0 ? { ...spec, elements: pages } : spec,
        ),
        fixture('transcribe.mjs'),
      );
      const agent = suite.agent({ farmToken: made.farm.token, env: { FIXTURE_PAUSE_MS: '300' } });
      await suite.until(made.tasks.last!, ['running']);
      await agent.kill('SIGTERM');
      expect(await agent.exited).toBe(0);
      expect((await suite.task(made.tasks.last!)).state).toBe('completed');
      // The second task was never claimed.
      expect((await suite.task(made.tasks.never!)).state).toBe('pending');
      expect(agent.output()).toContain('waiting for 1 running task(s) to finish');
      expect(scratchLeft(agent)).toEqual([]);
      expect(fs.existsSync(agent.workDir)).toBe(true);
    }, 30_000);

    it('kills a task still running when the grace period ends and reports it error', async () => {
      const made = await suite.process(
        [{ slug: 'endless' }],
        ['node', '-e', 'console.log("working"); setInterval(() => {}, 1000)'],
      );
      const agent = suite.agent({ farmToken: made.farm.token, env: { FOLIA_AGENT_GRACE_S: '1' } });
      const id = made.tasks.endless!;
      await waitFor('the program to start', async () =>
        (await suite.task(id)).logs?.includes('working'),
      );
      await agent.kill('SIGTERM');
      expect(await agent.exited).toBe(0);
      const task = await suite.task(id);
      expect(task.state).toBe('error');
      expect(task.logs).toContain('[agent] Killed: the agent was shutting down (signal SIGTERM).');
      expect(scratchLeft(agent)).toEqual([]);
    }, 30_000);
  });
});
