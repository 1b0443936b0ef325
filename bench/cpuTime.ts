/**
 * CPU time a process and its descendants have used so far (user + system, from /proc), for
 * benchmarks to say what each side cost the machine beside how long it took. Linux only: null
 * elsewhere.
 */
import fs from 'node:fs';

const TICKS_PER_SECOND = 100;

function stat(pid: number): { ppid: number; seconds: number } | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name, in parentheses, may hold spaces: fields are counted after it.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return { ppid: Number(fields[1]), seconds: ticks / TICKS_PER_SECOND };
  } catch {
    return null;
  }
}

/**
 * Seconds of CPU used by `root`'s descendants, and by root itself unless `skipRoot`, leaving
 * out the tree under `exclude` (another child measured on its own).
 */
export function cpuSeconds(
  root: number,
  options: { skipRoot?: boolean; exclude?: number } = {},
): number | null {
  if (!fs.existsSync(`/proc/${root}/stat`)) return null;
  const all = new Map<number, { ppid: number; seconds: number }>();
  for (const name of fs.readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    const found = stat(pid);
    if (found) all.set(pid, found);
  }
  let total = 0;
  for (const [pid, process] of all) {
    if (options.skipRoot && pid === root) continue;
    let at: number | undefined = pid;
    // Counted when root is the process or one of its ancestors, and exclude is neither.
    while (at && at !== root && at !== options.exclude) at = all.get(at)?.ppid;
    if (at === root) total += process.seconds;
  }
  return total;
}
