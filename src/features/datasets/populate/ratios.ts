/**
 * The split of a populate (spec 001 §5 "Populate"), as whole percentages per set name. The last
 * set by name absorbs what the others leave, so the ratios keep summing to 100 while a person
 * moves one of them; it never goes below 0, and the ratio moved is capped instead.
 */

export type Ratios = Record<string, number>;

export const RATIO_MIN = 0;
export const RATIO_MAX = 100;
export const RATIO_TOTAL = 100;

/** train/dev/test is the usual split of a learning set, and gets the usual 80/10/10. */
const TRAINING_DEFAULT: Ratios = { train: 80, dev: 10, test: 10 };

/** Set names in the order the balancing reads them: the last one absorbs the remainder. */
export function byName(names: readonly string[]): string[] {
  return [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The set that absorbs the remainder, or null without sets. */
export function absorbingSet(names: readonly string[]): string | null {
  return byName(names).at(-1) ?? null;
}

/** 80/10/10 for exactly train, dev and test; else an even split, the remainder on the last. */
export function defaultRatios(names: readonly string[]): Ratios {
  const sorted = byName(names);
  const training = Object.keys(TRAINING_DEFAULT);
  if (sorted.length === training.length && training.every((name) => sorted.includes(name))) {
    return { ...TRAINING_DEFAULT };
  }
  if (!sorted.length) return {};
  const share = Math.floor(RATIO_TOTAL / sorted.length);
  const ratios: Ratios = {};
  for (const name of sorted) ratios[name] = share;
  ratios[sorted.at(-1)!] = RATIO_TOTAL - share * (sorted.length - 1);
  return ratios;
}

/** A typed value as a ratio: a whole number from 0 to 100 (anything else is brought there). */
export function clampRatio(value: number): number {
  if (!Number.isFinite(value)) return RATIO_MIN;
  return Math.min(RATIO_MAX, Math.max(RATIO_MIN, Math.round(value)));
}

/**
 * The ratios once `name` is set to `value`: the last set by name takes what is left, never less
 * than 0, which caps `value`. Moving the last set itself moves nothing else (the sum may then
 * differ from 100, which the form says).
 */
export function setRatio(ratios: Ratios, name: string, value: number): Ratios {
  const next = { ...ratios, [name]: clampRatio(value) };
  const last = absorbingSet(Object.keys(ratios));
  if (last === null || last === name) return next;
  const others = Object.entries(next)
    .filter(([set]) => set !== name && set !== last)
    .reduce((sum, [, ratio]) => sum + ratio, 0);
  const room = Math.max(RATIO_MIN, RATIO_TOTAL - others);
  next[name] = Math.min(next[name]!, room);
  next[last] = room - next[name]!;
  return next;
}

export function ratioSum(ratios: Ratios): number {
  return Object.values(ratios).reduce((sum, ratio) => sum + ratio, 0);
}

export function sumsToTotal(ratios: Ratios): boolean {
  return ratioSum(ratios) === RATIO_TOTAL;
}

/** The payload's `sets`: a fraction of the count per set, sets at 0 % left out. */
export function toFractions(ratios: Ratios): Record<string, number> {
  const fractions: Record<string, number> = {};
  for (const [name, ratio] of Object.entries(ratios)) {
    if (ratio > 0) fractions[name] = ratio / RATIO_TOTAL;
  }
  return fractions;
}
