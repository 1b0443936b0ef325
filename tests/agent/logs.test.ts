import { describe, expect, it } from 'vitest';
import { ApiRefusal, type AgentApi, type RequestOptions } from '../../agent/api';
import { LogSender } from '../../agent/logs';

/** Records what LogSender sends instead of calling a server. */
function recorder(answer: (call: number) => void = () => undefined) {
  const sent: string[] = [];
  const api = {
    async request(_path: string, options: RequestOptions) {
      answer(sent.length);
      sent.push(String(options.body!()));
      return null;
    },
  } as unknown as AgentApi;
  return { api, sent };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('task log batching', () => {
  it('sends what a chatty program prints about once per interval, in order, nothing lost', async () => {
    const { api, sent } = recorder();
    const logs = new LogSender(api, 'task', 100);
    const lines = Array.from({ length: 500 }, (_, i) => `line ${i}\n`);
    for (const [i, line] of lines.entries()) {
      logs.write(line);
      if (i % 100 === 99) await sleep(60);
    }
    await logs.flush();
    // 500 writes over about 300 ms: a few calls, not one per line.
    expect(sent.length).toBeGreaterThanOrEqual(2);
    expect(sent.length).toBeLessThanOrEqual(6);
    expect(sent.join('')).toBe(lines.join(''));
  });

  it('keeps the newest megabyte, cut at a line start, while the server is away', async () => {
    const { api, sent } = recorder();
    const logs = new LogSender(api, 'task', 60_000);
    const line = `${'x'.repeat(99)}\n`;
    for (let i = 0; i < 15_000; i += 1) logs.write(line);
    logs.write('the last line\n');
    await logs.flush();
    expect(sent).toHaveLength(1);
    const text = sent[0]!;
    expect(text.startsWith('[… earlier output removed …]\nxxx')).toBe(true);
    expect(text.endsWith('the last line\n')).toBe(true);
    expect(text.length).toBeLessThanOrEqual(1024 * 1024 + 40);
  });

  it('stops sending once the server refuses the task (it went to another agent)', async () => {
    const { api, sent } = recorder((call) => {
      if (call === 0) throw new ApiRefusal(403, '{}', 'POST logs');
    });
    const logs = new LogSender(api, 'task', 10);
    logs.write('first\n');
    await logs.flush();
    logs.write('second\n');
    await logs.flush();
    expect(sent).toEqual([]);
  });
});
