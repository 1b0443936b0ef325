/** A process' or task's state (spec 000 §4) as a coloured badge, the same colour everywhere. */
import type { ProcessState } from '@/api/processTypes';

export const STATE_COLOURS: Record<ProcessState, string> = {
  unscheduled: 'bg-slate-100 text-slate-700 ring-slate-300',
  pending: 'bg-amber-100 text-amber-900 ring-amber-300',
  running: 'bg-sky-100 text-sky-800 ring-sky-300',
  completed: 'bg-emerald-100 text-emerald-800 ring-emerald-300',
  failed: 'bg-red-100 text-red-800 ring-red-300',
  error: 'bg-red-200 text-red-900 ring-red-400',
  stopping: 'bg-orange-100 text-orange-800 ring-orange-300',
  stopped: 'bg-zinc-200 text-zinc-800 ring-zinc-400',
  cancelled: 'bg-zinc-100 text-zinc-600 ring-zinc-300',
};

const LABELS: Record<ProcessState, string> = {
  unscheduled: 'Unscheduled',
  pending: 'Pending',
  running: 'Running',
  completed: 'Completed',
  failed: 'Failed',
  error: 'Error',
  stopping: 'Stopping',
  stopped: 'Stopped',
  cancelled: 'Cancelled',
};

export function stateLabel(state: ProcessState): string {
  return LABELS[state] ?? state;
}

export function StateBadge({ state }: { state: ProcessState }) {
  return (
    <span
      data-state={state}
      className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${STATE_COLOURS[state] ?? STATE_COLOURS.unscheduled}`}
    >
      {stateLabel(state)}
    </span>
  );
}
