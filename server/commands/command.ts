import { parseArgs } from 'node:util';
import { loadConfig, type Config } from '../config';
import { openDatabase, type Db } from '../db';
import { migrateToLatest } from '../db/migrate';
import type { ApiError } from '../errors';

export interface CliOutput {
  out(line: string): void;
  err(line: string): void;
}

export interface CommandContext {
  env: NodeJS.ProcessEnv;
  output: CliOutput;
  /** Settings that win over the environment (tests point at their own PostgreSQL schema). */
  overrides: Partial<Config>;
}

export interface Command {
  name: string;
  summary: string;
  usage: string;
  /** Resolves to the process exit code. */
  run(args: string[], context: CommandContext): Promise<number>;
}

/** A mistake of the person typing the command: printed as is, exit code 1. */
export class CommandError extends Error {}

type FlagSpec = Record<string, { required: boolean }>;

/** `--name value` or `--name=value` string flags; unknown flags and stray words are refused. */
export function parseFlags<S extends FlagSpec>(
  args: string[],
  spec: S,
): { [K in keyof S]: S[K]['required'] extends true ? string : string | undefined } {
  let values: Record<string, string | boolean | undefined>;
  try {
    const options = Object.fromEntries(
      Object.keys(spec).map((name) => [name, { type: 'string' as const }]),
    );
    values = parseArgs({ args, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new CommandError((error as Error).message);
  }
  for (const [name, { required }] of Object.entries(spec)) {
    if (required && (typeof values[name] !== 'string' || values[name] === '')) {
      throw new CommandError(`--${name} is required.`);
    }
  }
  return values as never;
}

/** Opens the configured database, brought up to date, for the length of `work`. */
export async function withDatabase<T>(
  context: CommandContext,
  work: (db: Db) => Promise<T>,
): Promise<T> {
  const config = { ...loadConfig(context.env), ...context.overrides };
  const handle = await openDatabase(config);
  try {
    await migrateToLatest(
      handle.db as never,
      handle.dialect === 'postgres' ? config.databaseSchema : null,
    );
    return await work(handle.db);
  } finally {
    await handle.close();
  }
}

/** One line per problem, naming the field the way the flags do. */
export function describeApiError(error: ApiError): string[] {
  return error.errors.map((item) => {
    const flag = item.attr === 'display_name' ? 'display-name' : item.attr;
    return flag && flag !== 'non_field_errors' ? `--${flag}: ${item.detail}` : item.detail;
  });
}
