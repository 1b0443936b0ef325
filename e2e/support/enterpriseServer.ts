import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const TSX = path.join('node_modules', '.bin', 'tsx');

/**
 * A second Folia of the enterprise edition, for the specs of its screens: the shared e2e server
 * runs the community edition the other specs expect. It serves the app the shared server built
 * (FOLIA_DIST_DIR), on a port and a data folder of its own, removed by close().
 */
export interface EnterpriseServer {
  origin: string;
  dataDir: string;
  /** Makes an account on this server's database through the admin CLI. */
  createUser(
    email: string,
    password: string,
    options?: { admin?: boolean; displayName?: string },
  ): void;
  /** The Default farm's agent token, read with the admin CLI (`farms`). */
  farmToken(): string;
  close(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

export async function startEnterpriseServer(): Promise<EnterpriseServer> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folia-e2e-enterprise-'));
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    FOLIA_DATA_DIR: dataDir,
    DATABASE_URL: '',
    FOLIA_DEMO: '0',
    FOLIA_LOG: '0',
    FOLIA_EMBEDDED_AGENT: '0',
    FOLIA_SKIP_BUILD: '1',
    FOLIA_FEATURES:
      'search,selection,signup,enterprise,pdf_export,pagexml_export,alto_export,docx_export,csv_export',
    FOLIA_SECRET_KEY: randomBytes(32).toString('hex'),
  };
  let output = '';
  const child: ChildProcess = spawn(TSX, ['server/main.ts'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  while (!(await answers(`${origin}/api/v1/`))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error(`The enterprise server did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    origin,
    dataDir,
    createUser(email, password, options = {}) {
      const args = ['server/cli.ts', options.admin ? 'createsuperuser' : 'createuser'];
      args.push('--email', email, '--password', password);
      if (options.displayName) args.push('--display-name', options.displayName);
      execFileSync(TSX, args, { env, stdio: 'pipe' });
    },
    farmToken() {
      const output = execFileSync(TSX, ['server/cli.ts', 'farms'], { env, stdio: 'pipe' });
      const token = output
        .toString()
        .split('\n')
        .map((line) => line.split('\t'))
        .find(([name]) => name === 'Default farm')?.[2];
      if (!token) throw new Error(`No "Default farm" in:\n${output.toString()}`);
      return token;
    },
    async close() {
      child.kill('SIGTERM');
      await exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
