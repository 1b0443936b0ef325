import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { describeEachDialect } from '../server/harness';
import { isAlive, waitFor } from './agentProcess';
import { fixture, useAgentSuite } from './setup';

const TIMEOUT_S = 2;

describeEachDialect(
  'An agent killed mid-task',
  ({ t }) => {
    const suite = useAgentSuite(t);
    const pidDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folia-lost-agent-'));
    afterAll(() => {
      // Should a test fail half-way, no fixture program is left running.
      for (const name of fs.readdirSync(pidDir)) {
        try {
          process.kill(Number(name), 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
      fs.rmSync(pidDir, { recursive: true, force: true });
    });

    it('loses its task to the queue after the timeout; another agent completes it and nothing is applied twice', async () => {
      const app = t().app;
      const pages = await suite.pages('Lost page', 8);
      const made = await suite.process(
        [{ slug: 'transcribe', elements: pages }],
        fixture('transcribe.mjs'),
      );
      const id = made.tasks.transcribe!;
      const env = { FIXTURE_PAUSE_MS: '250', FIXTURE_PID_DIR: pidDir };
      const doomed = suite.agent({ farmToken: made.farm.token, hostname: 'doomed', env });
      const activities = () =>
        app.db
          .selectFrom('worker_activities')
          .select(['element_id', 'state'])
          .where('worker_run_id', '=', made.workerRunId)
          .execute();
      await waitFor(
        'two elements processed',
        async () => (await activities()).filter((row) => row.state === 'processed').length >= 2,
      );
      const workerPids = fs.readdirSync(pidDir).map(Number);
      expect(workerPids).toHaveLength(1);
      expect(isAlive(workerPids[0]!)).toBe(true);
      await doomed.kill('SIGKILL');
      expect(isAlive(doomed.process.pid!)).toBe(false);
      // Its program does not outlive it (it would write on with a token still valid).
      await waitFor("the killed agent's program to be gone", () => !isAlive(workerPids[0]!), 5000);
      expect((await suite.task(id)).state).toBe('running');

      const requeued = await waitFor('the task back in the queue', async () => {
        const task = await suite.task(id);
        const line = '[agent doomed stopped answering: the task goes back to the queue]';
        return task.logs?.includes(line) ? task : undefined;
      });
      expect(requeued.state).toBe('pending');
      expect(requeued.agent).toBeNull();

      const rescuer = suite.agent({ farmToken: made.farm.token, hostname: 'rescuer', env });
      const done = await suite.until(id, ['completed', 'failed', 'error'], 30_000);
      expect(done.state).toBe('completed');
      expect(done.attempts).toBe(2);
      expect(rescuer.output()).toContain(`running task ${id}`);
      // Elements the first attempt had processed are skipped, not transcribed again.
      expect(done.logs).toMatch(/skip /);

      const rows = await app.db
        .selectFrom('transcriptions')
        .select('element_id')
        .where('worker_run_id', '=', made.workerRunId)
        .execute();
      expect(rows.map((row) => row.element_id).sort()).toEqual([...pages].sort());
      const states = await activities();
      expect(states).toHaveLength(pages.length);
      expect(states.every((row) => row.state === 'processed')).toBe(true);
    }, 90_000);
  },
  { FOLIA_AGENT_TIMEOUT_S: String(TIMEOUT_S) },
);
