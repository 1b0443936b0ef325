import type { ModelVersionState as State } from '@/api/models';

const STYLES: Record<State, string> = {
  created: 'bg-slate-100 text-slate-700',
  processing: 'bg-amber-100 text-amber-800',
  available: 'bg-green-100 text-green-800',
  error: 'bg-red-100 text-red-800',
};

/** A model version's state (spec 000 §4): created while its archive is awaited,
 * processing while it is stored, then available or error. */
export function ModelVersionState({ state }: { state: State }) {
  return (
    <span
      className={`inline-block rounded px-2 py-0.5 text-xs font-medium ${STYLES[state] ?? STYLES.created}`}
    >
      {state}
    </span>
  );
}
