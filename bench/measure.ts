export interface Figure {
  label: string;
  runs: number;
  medianMs: number;
  p95Ms: number;
  perSecond: number;
}

/** Runs fn `runs` times after a warm-up and reports the median, p95 and throughput. */
export async function measure(
  label: string,
  runs: number,
  fn: () => Promise<unknown>,
): Promise<Figure> {
  for (let i = 0; i < Math.min(20, runs); i += 1) await fn();
  const times: number[] = [];
  const started = performance.now();
  for (let i = 0; i < runs; i += 1) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  const total = performance.now() - started;
  times.sort((a, b) => a - b);
  return {
    label,
    runs,
    medianMs: times[Math.floor(times.length / 2)] ?? 0,
    p95Ms: times[Math.floor(times.length * 0.95)] ?? 0,
    perSecond: (runs / total) * 1000,
  };
}

export function printTable(figures: Figure[]): void {
  const rows = figures.map((f) => [
    f.label,
    String(f.runs),
    f.medianMs.toFixed(2),
    f.p95Ms.toFixed(2),
    f.perSecond.toFixed(0),
  ]);
  const head = ['case', 'runs', 'median ms', 'p95 ms', 'per s'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  console.log(line(head));
  for (const row of rows) console.log(line(row));
}
