#!/usr/bin/env node
// Starts the real server for the e2e suite on a fresh data dir (building the app if stale),
// and removes that dir when the run is over: each run has its own (see e2e/support/runPlace.ts).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const dataDir = process.env.FOLIA_DATA_DIR;
if (!dataDir) throw new Error('FOLIA_DATA_DIR is required');
fs.rmSync(dataDir, { recursive: true, force: true });
fs.mkdirSync(dataDir, { recursive: true });
delete process.env.DATABASE_URL;

const child = spawn(path.join('node_modules', '.bin', 'tsx'), ['server/main.ts'], {
  stdio: 'inherit',
  env: process.env,
});
const stop = () => child.kill('SIGTERM');
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
child.on('exit', (code) => {
  if (process.env.FOLIA_E2E_KEEP_DATA !== '1') fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(code ?? 0);
});
