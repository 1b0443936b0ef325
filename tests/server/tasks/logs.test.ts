import { describe, expect, it } from 'vitest';
import { describeEachDialect, Client } from '../harness';
import { makeActorsAndProjects } from '../actors';
import { LOG_CUT_LINE, MAX_LOG_BYTES, boundLog } from '../../../server/services/tasks/logs';
import { claim, makeProcess, registerAgent, taskRow } from './fixtures';

describe('boundLog', () => {
  it('keeps a short log as it is', () => {
    expect(boundLog('a\nb\n', 10)).toBe('a\nb\n');
  });

  it('keeps the last bytes from a line start, after one line saying text was removed', () => {
    const cut = Buffer.byteLength(LOG_CUT_LINE);
    const text = `${'a'.repeat(50)}\nsecond line\nthird\n`;
    const bounded = boundLog(text, cut + 14);
    expect(bounded).toBe(`${LOG_CUT_LINE}third\n`);
    expect(Buffer.byteLength(bounded)).toBeLessThanOrEqual(cut + 14);
  });

  it('never leaves half a character where it cut', () => {
    const cut = Buffer.byteLength(LOG_CUT_LINE);
    const bounded = boundLog('é'.repeat(40), cut + 5);
    expect(bounded.startsWith(LOG_CUT_LINE)).toBe(true);
    expect(bounded.slice(LOG_CUT_LINE.length)).toMatch(/^é+$/);
  });
});

describeEachDialect('Task logs', ({ t }) => {
  it('keeps the last MiB of what the agent sends, readable by project members', async () => {
    const app = t().app;
    const { actors, privateId } = await makeActorsAndProjects(app);
    const made = await makeProcess(app, privateId, actors.owner.id, [{ slug: 'chatty' }]);
    const agent = await registerAgent(app, made.farm, 'chatty', 1);
    await claim(app, agent, 1);
    const id = made.tasks.chatty!;
    const line = `${'x'.repeat(1023)}\n`;
    const send = (payload: string) =>
      app.inject({
        method: 'POST',
        url: `/api/v1/ponos/task/${id}/logs/`,
        headers: { ...agent.headers, 'content-type': 'text/plain' },
        payload,
      });
    expect((await send('the very first line\n')).statusCode).toBe(204);
    for (let part = 0; part < 3; part += 1) {
      expect((await send(line.repeat(512))).statusCode).toBe(204);
    }
    expect((await send('the last line\n')).statusCode).toBe(204);
    const logs = (await taskRow(app, id)).logs;
    expect(Buffer.byteLength(logs)).toBeLessThanOrEqual(MAX_LOG_BYTES);
    expect(Buffer.byteLength(logs)).toBeGreaterThan(MAX_LOG_BYTES - 2048);
    expect(logs.startsWith(`${LOG_CUT_LINE}x`)).toBe(true);
    expect(logs).not.toContain('the very first line');
    expect(logs.endsWith('the last line\n')).toBe(true);
    const read = await new Client(app, actors.guest.token).get(`task/${id}/logs/`);
    expect(read.body).toBe(logs);
  });
});
