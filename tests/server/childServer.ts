/**
 * A server in a process of its own, for tests that kill it (SIGKILL) mid-work and start another
 * on the same database. Run with `node --import tsx tests/server/childServer.ts`; the config
 * comes as JSON in FOLIA_TEST_CONFIG, and the line `listening <port>` says it is ready.
 */
import { buildApp } from '../../server/app';
import type { Config } from '../../server/config';

// Buffers (the secrets key) cross JSON as {type: 'Buffer', data: [...]}: made Buffers again.
const config = JSON.parse(process.env.FOLIA_TEST_CONFIG!, (_key, value: unknown) =>
  (value as { type?: unknown } | null)?.type === 'Buffer' &&
  Array.isArray((value as { data?: unknown }).data)
    ? Buffer.from((value as { data: number[] }).data)
    : value,
) as Config;
const app = await buildApp(config);
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
console.log(`listening ${typeof address === 'object' && address ? address.port : ''}`);
