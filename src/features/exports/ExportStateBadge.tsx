/** A project export's state (spec 000 §4: created, running, done, failed) as a coloured badge. */
import type { ExportState } from '@/api/exports';

const COLOURS: Record<ExportState, string> = {
  created: 'bg-slate-100 text-slate-700 ring-slate-300',
  running: 'bg-sky-100 text-sky-800 ring-sky-300',
  done: 'bg-emerald-100 text-emerald-800 ring-emerald-300',
  failed: 'bg-red-100 text-red-800 ring-red-300',
};

const LABELS: Record<ExportState, string> = {
  created: 'Created',
  running: 'Running',
  done: 'Done',
  failed: 'Failed',
};

export function exportStateLabel(state: ExportState): string {
  return LABELS[state] ?? state;
}

export function ExportStateBadge({ state }: { state: ExportState }) {
  return (
    <span
      data-state={state}
      className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${COLOURS[state] ?? COLOURS.created}`}
    >
      {exportStateLabel(state)}
    </span>
  );
}
