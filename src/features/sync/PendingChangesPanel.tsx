import { useEffect, useState } from 'react';
import { ui } from '@/components/styles';
import { downloadText } from '@/lib/download';
import { relativeTime } from '@/lib/relativeTime';
import { useConnectivity } from '@/offline/runtime';
import { describeChange } from './describeChange';
import { PendingChangeItem } from './PendingChangeItem';
import { pendingChangesFile } from './pendingChangesFile';
import { usePendingChanges } from './usePendingChanges';
import { useSyncActions } from './useSyncActions';

/** Relative times ("2 minutes ago") are worked out again this often while the panel is open. */
const TICK_MS = 30_000;

function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, []);
  return now;
}

export function lastSyncText(lastSync: number | null, now: number = Date.now()): string {
  return lastSync
    ? `Last synced ${relativeTime(new Date(lastSync).toISOString(), now)}`
    : 'Not synced from this browser yet';
}

function summary(total: number, attention: number): string {
  const head =
    total === 1
      ? '1 change is not on the server yet.'
      : `${total} changes are not on the server yet.`;
  if (attention === 0) return head;
  return `${head} ${attention === 1 ? '1 needs' : `${attention} need`} your attention.`;
}

/**
 * The Pending changes panel: every edit not yet on the server, in the order it is sent, with
 * what can be done about each, and a copy of them all to keep.
 */
export function PendingChangesPanel() {
  const { loaded, entries, lastSync, projectNames, elements } = usePendingChanges();
  const { online } = useConnectivity();
  const actions = useSyncActions();
  const now = useNow();
  const [sending, setSending] = useState(false);

  if (!loaded) {
    return (
      <p role="status" className="text-slate-600">
        Loading…
      </p>
    );
  }

  if (entries.length === 0) {
    return (
      <div className="rounded-lg border border-dashed border-slate-300 p-8 text-center">
        <p className="font-medium text-slate-700">Everything is saved on the server.</p>
        <p className="mt-1 text-sm text-slate-500">{lastSyncText(lastSync, now)}</p>
      </div>
    );
  }

  const attention = entries.filter((e) => e.status === 'failed' || e.status === 'conflict');
  const waiting = entries.some((e) => e.status === 'pending' || e.status === 'sending');

  const download = () => {
    const file = pendingChangesFile(entries, (entry) =>
      describeChange(entry, { elements, typeName: (slug) => slug }),
    );
    downloadText(file.filename, file.text);
  };
  const sendNow = () => {
    setSending(true);
    void actions.sendNow().finally(() => setSending(false));
  };

  return (
    <div>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="text-sm text-slate-700">
          <p>{summary(entries.length, attention.length)}</p>
          <p className="text-slate-500">
            {online
              ? lastSyncText(lastSync, now)
              : 'You are offline: waiting changes are sent when the network returns.'}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {online && waiting && (
            <button type="button" className={ui.primaryButton} disabled={sending} onClick={sendNow}>
              {sending ? 'Sending…' : 'Send now'}
            </button>
          )}
          <button type="button" className={ui.secondaryButton} onClick={download}>
            Download as file
          </button>
        </div>
      </div>
      <ol aria-label="Pending changes" className="mt-4 flex flex-col gap-3">
        {entries.map((entry) => (
          <PendingChangeItem
            key={entry.seq}
            entry={entry}
            project={projectNames[entry.corpusId]}
            elements={elements}
            actions={actions}
            now={now}
          />
        ))}
      </ol>
    </div>
  );
}
