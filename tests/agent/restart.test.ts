import net from 'node:net';
import { expect, it } from 'vitest';
import { describeEachDialect } from '../server/harness';
import { waitFor } from './agentProcess';
import { fixture, useAgentSuite } from './setup';

/** A TCP relay to the test server that can go away and come back on the same port. */
async function relayTo(target: URL) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    sockets.add(socket).add(upstream);
    socket.pipe(upstream).pipe(socket);
    const drop = () => {
      socket.destroy();
      upstream.destroy();
    };
    socket.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
  });
  const listen = (port: number) =>
    new Promise<number>((resolve) =>
      server.listen(port, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)),
    );
  const port = await listen(0);
  return {
    url: `http://127.0.0.1:${port}`,
    async down() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
        sockets.clear();
      });
    },
    up: () => listen(port),
  };
}

describeEachDialect('An agent whose server restarts', ({ t }) => {
  const suite = useAgentSuite(t);

  it('keeps retrying while the server is away, then runs the tasks queued meanwhile', async () => {
    const waiting = await suite.process([], fixture('report.mjs'));
    const relay = await relayTo(new URL(suite.url));
    const agent = suite.agent({ farmToken: waiting.farm.token, url: relay.url });
    await agent.registered;
    await relay.down();
    await waitFor('the agent to notice', () => /\(retrying\)/.test(agent.output()));
    // Longer than the first retries' delays: the agent is still there and still trying.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(agent.process.exitCode).toBeNull();

    const made = await suite.process([{ slug: 'after' }], fixture('report.mjs'), waiting.farm);
    await relay.up();
    const task = await suite.until(made.tasks.after!, ['completed', 'failed', 'error'], 20_000);
    expect(task.state).toBe('completed');
    expect(agent.output()).toContain('server answers again');
    await relay.down();
  }, 40_000);
});
