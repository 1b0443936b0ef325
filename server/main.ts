import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app';
import { loadConfig } from './config';
import { ensureBuild } from './build';
import { seedDemo } from './demo/index';
import { startEmbeddedAgent } from './embeddedAgent';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Where the embedded agent reaches this server: loopback when it listens everywhere. */
const agentHost = (host: string) =>
  ['0.0.0.0', '::', 'localhost'].includes(host)
    ? '127.0.0.1'
    : host.includes(':')
      ? `[${host}]`
      : host;

async function main(): Promise<void> {
  const config = loadConfig(process.env, root);
  if (process.env.FOLIA_SKIP_BUILD !== '1')
    ensureBuild(root, config.distDir, (line) => console.log(line));
  const app = await buildApp(config);
  const demo = config.demo ? await seedDemo(app) : null;
  await app.listen({ port: config.port, host: config.host });

  const scheme = config.tlsCert && config.tlsKey ? 'https' : 'http';
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const lines = [``, `Folia is running at ${scheme}://${shownHost}:${port}/`];
  if (demo) {
    lines.push(
      `Demo admin (shown once, keep it): ${demo.email} / ${demo.password}`,
      `Demo project: "${demo.corpusName}"`,
    );
  }
  lines.push(
    `Database: ${config.databaseUrl ? 'PostgreSQL' : path.join(config.dataDir, 'folia.sqlite3')}`,
  );
  console.log(lines.join('\n') + '\n');

  const agent =
    process.env.FOLIA_EMBEDDED_AGENT === '0'
      ? null
      : await startEmbeddedAgent(app.db, {
          root,
          url: `${scheme}://${agentHost(config.host)}:${port}`,
          dataDir: config.dataDir,
          slots: process.env.FOLIA_AGENT_SLOTS,
        });

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    // The agent reports its tasks' last states to this server before it goes.
    await agent?.stop();
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
