/**
 * Admin commands: `npm run cli -- <command> [flags]`. Each command lives in server/commands/;
 * adding one means importing it into COMMANDS.
 */
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { Config } from './config';
import { ApiError } from './errors';
import { CommandError, describeApiError, type CliOutput, type Command } from './commands/command';
import { createsuperuserCommand } from './commands/createsuperuser';
import { createuserCommand } from './commands/createuser';
import { farmsCommand } from './commands/farms';
import { farmRateCommand } from './commands/farmRate';
import { importCommand } from './commands/import';
import { importModelCommand } from './commands/importModel';

const COMMANDS: Command[] = [
  createsuperuserCommand,
  createuserCommand,
  farmsCommand,
  farmRateCommand,
  importCommand,
  importModelCommand,
];

function usage(): string {
  const width = Math.max(...COMMANDS.map((command) => command.name.length));
  return [
    'Usage: npm run cli -- <command> [flags]',
    '',
    'Commands:',
    ...COMMANDS.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    `  ${'help'.padEnd(width)}  Show this message`,
    '',
    'Flags:',
    ...COMMANDS.map((command) => `  ${command.usage}`),
    '',
    'The database is the one the server uses: DATABASE_URL, or the SQLite file in FOLIA_DATA_DIR.',
  ].join('\n');
}

/** Runs one command and resolves to its exit code; never exits the process itself. */
export async function runCli(
  argv: string[],
  env: NodeJS.ProcessEnv,
  output: CliOutput,
  overrides: Partial<Config> = {},
): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    output.out(usage());
    return 0;
  }
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (!command) {
    output.err(`Unknown command "${name}".\n\n${usage()}`);
    return 1;
  }
  try {
    return await command.run(args, { env, output, overrides });
  } catch (error) {
    if (error instanceof CommandError) {
      output.err(`${name}: ${error.message}\nUsage: npm run cli -- ${command.usage}`);
      return 1;
    }
    if (error instanceof ApiError) {
      for (const line of describeApiError(error)) output.err(`${name}: ${line}`);
      return 1;
    }
    // Configuration and database failures: the message says enough, a stack trace would not.
    output.err(`${name}: ${(error as Error).message ?? String(error)}`);
    return 1;
  }
}

function runAsScript(): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return import.meta.url === pathToFileURL(fs.realpathSync(script)).href;
  } catch {
    return false;
  }
}

if (runAsScript()) {
  const output: CliOutput = {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  };
  process.exitCode = await runCli(process.argv.slice(2), process.env, output);
}
