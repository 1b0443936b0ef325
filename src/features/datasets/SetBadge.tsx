/**
 * A dataset set's name as a coloured badge (spec 001 §2: set badges cycle through 6 colours).
 * The colour follows the set's position in `dataset.sets`, so a set keeps its colour on every
 * screen: the dataset page, its chart, the element's datasets table and the modals.
 */
import type { Dataset } from '@/api/datasets';

/**
 * Badge and bar classes per colour, written out in full so Tailwind finds them. Each badge pairs
 * a light background with its 800–900 shade of text: well above 4.5:1 contrast.
 */
export const SET_COLOURS = [
  { badge: 'bg-sky-100 text-sky-900 ring-sky-300', bar: 'bg-sky-500' },
  { badge: 'bg-amber-100 text-amber-900 ring-amber-300', bar: 'bg-amber-500' },
  { badge: 'bg-emerald-100 text-emerald-900 ring-emerald-300', bar: 'bg-emerald-500' },
  { badge: 'bg-fuchsia-100 text-fuchsia-900 ring-fuchsia-300', bar: 'bg-fuchsia-500' },
  { badge: 'bg-orange-100 text-orange-900 ring-orange-300', bar: 'bg-orange-500' },
  { badge: 'bg-indigo-100 text-indigo-900 ring-indigo-300', bar: 'bg-indigo-500' },
] as const;

/** A set name that is not (or no longer) among the dataset's sets, e.g. renamed meanwhile. */
const UNKNOWN_SET = { badge: 'bg-slate-100 text-slate-800 ring-slate-300', bar: 'bg-slate-400' };

/** The set's position in the dataset's sets, or -1 when the dataset has no set of that name. */
export function setIndex(dataset: Pick<Dataset, 'sets'>, name: string): number {
  return dataset.sets.findIndex((set) => set.name === name);
}

/** The colour of the set at `index` (from setIndex): the 6 colours in turn, grey when -1. */
export function setColour(index: number): { badge: string; bar: string } {
  return (index >= 0 && SET_COLOURS[index % SET_COLOURS.length]) || UNKNOWN_SET;
}

export function SetBadge({ name, index }: { name: string; index: number }) {
  return (
    <span
      data-set-colour={index < 0 ? 'unknown' : index % SET_COLOURS.length}
      className={`inline-flex max-w-full items-center truncate rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${setColour(index).badge}`}
    >
      {name}
    </span>
  );
}
