/** A dataset's state (spec 000 §4: open, building, complete, error) as a coloured badge. */
import type { DatasetState } from '@/api/datasets';

const STYLES: Record<DatasetState, string> = {
  open: 'bg-sky-100 text-sky-900 ring-sky-300',
  building: 'bg-amber-100 text-amber-900 ring-amber-300',
  complete: 'bg-emerald-100 text-emerald-900 ring-emerald-300',
  error: 'bg-red-100 text-red-900 ring-red-300',
};

const LABELS: Record<DatasetState, string> = {
  open: 'Open',
  building: 'Building',
  complete: 'Complete',
  error: 'Error',
};

export function DatasetStateBadge({ state }: { state: DatasetState }) {
  return (
    <span
      data-state={state}
      className={`inline-flex shrink-0 rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${STYLES[state] ?? STYLES.open}`}
    >
      {LABELS[state] ?? state}
    </span>
  );
}
