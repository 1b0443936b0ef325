/**
 * What the benchmarks of a server running as its own process share: medians of pairs, waits,
 * the server's peak memory, and running on SQLite then on PostgreSQL when it answers.
 */
import fs from 'node:fs';
import type { ChildServer } from '../tests/server/childProcess';
import { postgresAnswers, type DialectName } from './seed';

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A line of /proc/<pid>/status in kB: VmHWM is the peak resident set since the last reset. */
export function statusKb(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const found = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  return found ? Number(found[1]) : NaN;
}

/** Writing 5 to clear_refs resets VmHWM to the current resident set (Linux ≥ 4.0). */
export function resetPeak(pid: number): void {
  fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

/** Runs `bench` on SQLite, then on PostgreSQL when it answers (and says so when it does not). */
export async function onEachDialect(bench: (dialect: DialectName) => Promise<void>): Promise<void> {
  const dialects: DialectName[] = ['sqlite'];
  if (await postgresAnswers()) dialects.push('postgres');
  else console.log('(PostgreSQL unreachable: SQLite figures only)');
  for (const dialect of dialects) await bench(dialect);
}

/** Ends a dialect's run: its server process stopped (when it started) and its database dropped. */
export async function stopBench(
  server: ChildServer | null,
  throwaway: { close(): Promise<void> },
): Promise<void> {
  if (server) {
    server.process.kill('SIGTERM');
    await server.exited;
  }
  await throwaway.close();
}
