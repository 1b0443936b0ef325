/**
 * Two sides timed as alternated pairs: each pair runs both once, the side that goes first
 * swapping every pair, so drift (a warming cache, a busy neighbour) falls on both. Reported:
 * each side's median and the median of the pairs' ratios.
 */
import { median } from './serverProcess';

export interface PairFigure {
  label: string;
  pairs: number;
  aMs: number;
  bMs: number;
  /** Median over pairs of a / b. */
  ratio: number;
}

const time = async (fn: () => Promise<unknown>) => {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
};

/** Enough pairs to fill about `budgetMs`, at least `min`, at most `max`. */
export async function pairsWithin(
  label: string,
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
  { budgetMs = 2000, min = 15, max = 300, warmup = 5 } = {},
): Promise<PairFigure> {
  for (let i = 0; i < warmup; i += 1) {
    await a();
    await b();
  }
  const one = (await time(a)) + (await time(b));
  const count = Math.max(min, Math.min(max, Math.round(budgetMs / Math.max(0.05, one))));
  const aTimes: number[] = [];
  const bTimes: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < count; i += 1) {
    let ta: number;
    let tb: number;
    if (i % 2 === 0) {
      ta = await time(a);
      tb = await time(b);
    } else {
      tb = await time(b);
      ta = await time(a);
    }
    aTimes.push(ta);
    bTimes.push(tb);
    ratios.push(ta / tb);
  }
  return { label, pairs: count, aMs: median(aTimes), bMs: median(bTimes), ratio: median(ratios) };
}

/** A fixed-width table; `cells` gives each row's columns after the label. */
export function printRows(head: string[], rows: string[][]): void {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(line(head));
  for (const row of rows) console.log(line(row));
}

export const ms = (value: number) => value.toFixed(value < 10 ? 2 : 1);
