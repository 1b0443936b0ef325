import { useId, useState, type FormEvent } from 'react';
import type { ElementType } from '@/api/types';
import { ui } from '@/components/styles';
import type { OutboxEntry } from '@/offline/outboxEntry';
import { compareConflict, conflictSubject, mergeable } from './compare';
import type { SyncActions } from './useSyncActions';

export interface ConflictChoiceProps {
  entry: OutboxEntry;
  /** The project's types, to name them as the user knows them. */
  types?: ElementType[];
  actions: SyncActions;
}

/**
 * An edit the server did not apply because someone changed the element since: both versions
 * side by side, and the user's choice. Nothing is sent or dropped before it.
 */
export function ConflictChoice({ entry, types, actions }: ConflictChoiceProps) {
  const seq = entry.seq!;
  const busy = actions.busy.has(seq);
  const rows = compareConflict(entry, types);
  const deletion = entry.kind.endsWith('.delete');
  const subject = conflictSubject(entry);
  const merge = mergeable(entry);
  const [merged, setMerged] = useState<string | null>(null);
  const mergedId = useId();
  const known = entry.current !== null && entry.current !== undefined;

  const saveMerged = (event: FormEvent) => {
    event.preventDefault();
    if (merged === null || !merged.trim()) return;
    void actions.keepMerged(seq, merged.trim()).then(() => setMerged(null));
  };

  return (
    <section
      aria-label="Your version and the server's"
      className="mt-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-slate-800"
    >
      <p>
        {deletion
          ? `You deleted this ${subject}, and someone changed it on the server since.`
          : `Someone changed this ${subject} on the server after your edit was made.`}{' '}
        Choose the version to keep.
      </p>
      {!known && <p className="mt-1 text-slate-600">The server did not send its version.</p>}
      {rows.length > 0 && (
        <div className="mt-3 overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead className="text-xs text-slate-600 uppercase">
              <tr>
                <th scope="col" className="py-1 pr-3 font-medium">
                  Field
                </th>
                <th scope="col" className="py-1 pr-3 font-medium">
                  Before your edit
                </th>
                <th scope="col" className="py-1 pr-3 font-medium">
                  Yours
                </th>
                <th scope="col" className="py-1 font-medium">
                  On the server
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-amber-200">
              {rows.map((row) => (
                <tr key={row.key}>
                  <th scope="row" className="py-1.5 pr-3 font-medium text-slate-700">
                    {row.label}
                  </th>
                  <td className="py-1.5 pr-3 break-words text-slate-500">{row.before}</td>
                  <td className="py-1.5 pr-3 font-medium break-words text-slate-900">{row.mine}</td>
                  <td
                    className={`py-1.5 break-words ${row.changedThere ? 'font-medium text-amber-900' : 'text-slate-900'}`}
                  >
                    {row.theirs}
                    {row.changedThere && <span className="sr-only"> (changed)</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="mt-3 flex flex-wrap gap-2">
        <button
          type="button"
          className={deletion ? ui.dangerButton : ui.primaryButton}
          disabled={busy}
          onClick={() => void actions.keepMine(seq)}
        >
          {deletion ? 'Delete anyway' : 'Keep mine'}
        </button>
        <button
          type="button"
          className={ui.secondaryButton}
          disabled={busy}
          onClick={() => void actions.keepTheirs(seq)}
        >
          {deletion ? `Keep the ${subject}` : 'Keep theirs'}
        </button>
        {merge !== null && merged === null && (
          <button
            type="button"
            className={ui.secondaryButton}
            disabled={busy}
            onClick={() => setMerged(merge.value)}
          >
            Edit a merged value
          </button>
        )}
      </div>
      {merged !== null && (
        <form noValidate onSubmit={saveMerged} className="mt-3 flex flex-wrap items-end gap-2">
          <div className="min-w-48 flex-1">
            <label htmlFor={mergedId} className={ui.label}>
              {merge?.label ?? 'Merged value'}
            </label>
            <input
              id={mergedId}
              className={ui.input}
              value={merged}
              autoFocus
              onChange={(event) => setMerged(event.target.value)}
            />
          </div>
          <button type="submit" className={ui.primaryButton} disabled={busy || !merged.trim()}>
            Save merged value
          </button>
          <button
            type="button"
            className={ui.secondaryButton}
            disabled={busy}
            onClick={() => setMerged(null)}
          >
            Cancel
          </button>
        </form>
      )}
    </section>
  );
}
