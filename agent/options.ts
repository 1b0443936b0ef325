/** The agent's settings: command-line flags first, then the environment, then defaults. */
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

export interface CliOptions {
  url: string;
  farmToken: string;
  slots: number;
  hostname: string;
  workDir: string;
  heartbeatMs: number;
  /** How long running tasks may go on once the agent is asked to leave. */
  shutdownGraceMs: number;
}

export const USAGE =
  'usage: npm run agent -- --url URL --farm-token TOKEN [--slots N] [--hostname H] [--work-dir DIR]\n' +
  '(or FOLIA_AGENT_URL, FOLIA_FARM_TOKEN, FOLIA_AGENT_SLOTS, FOLIA_AGENT_HEARTBEAT_S, FOLIA_AGENT_GRACE_S)';

const positive = (name: string, value: string, integer: boolean): number => {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0 || (integer && !Number.isInteger(number)))
    throw new Error(`${name}: not a positive ${integer ? 'integer' : 'number'}: ${value}`);
  return number;
};

export function parseOptions(argv: string[], env: NodeJS.ProcessEnv): CliOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      url: { type: 'string' },
      'farm-token': { type: 'string' },
      slots: { type: 'string' },
      hostname: { type: 'string' },
      'work-dir': { type: 'string' },
    },
    strict: true,
  });
  const url = (values.url ?? env.FOLIA_AGENT_URL ?? '').trim().replace(/\/+$/, '');
  const farmToken = (values['farm-token'] ?? env.FOLIA_FARM_TOKEN ?? '').trim();
  if (!url || !farmToken) throw new Error(USAGE);
  if (!/^https?:\/\//.test(url)) throw new Error(`--url: not an http(s) URL: ${url}`);
  const slots = positive('--slots', values.slots ?? env.FOLIA_AGENT_SLOTS ?? '1', true);
  const heartbeatS = positive('FOLIA_AGENT_HEARTBEAT_S', env.FOLIA_AGENT_HEARTBEAT_S ?? '5', false);
  const graceS = positive('FOLIA_AGENT_GRACE_S', env.FOLIA_AGENT_GRACE_S ?? '30', false);
  return {
    url,
    farmToken,
    slots,
    hostname: values.hostname?.trim() || os.hostname(),
    workDir: path.resolve(values['work-dir'] ?? path.join(os.tmpdir(), 'folia-agent')),
    heartbeatMs: heartbeatS * 1000,
    shutdownGraceMs: graceS * 1000,
  };
}
