import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { corpusQuery } from '@/api/corpora';
import type { Corpus } from '@/api/types';
import { ConfirmDialog } from '@/components/modal/ConfirmDialog';
import { ui } from '@/components/styles';
import { relativeTime } from '@/lib/relativeTime';
import type { OutboxEntry } from '@/offline/outboxEntry';
import { ConflictChoice } from './ConflictChoice';
import { describeChange, type ElementFacts } from './describeChange';
import type { SyncActions } from './useSyncActions';

export function statusText(entry: OutboxEntry): string {
  switch (entry.status) {
    case 'pending':
      return 'Waiting';
    case 'sending':
      return 'Sending';
    case 'failed':
      return `Refused by the server: ${entry.error?.message || 'no reason given'}`;
    case 'conflict':
      return 'Changed on the server';
  }
}

const STATUS_STYLE: Record<OutboxEntry['status'], { text: string; dot: string }> = {
  pending: { text: 'text-slate-600', dot: 'bg-slate-400' },
  sending: { text: 'text-brand-700', dot: 'bg-brand-500 animate-pulse' },
  failed: { text: 'text-red-700', dot: 'bg-red-600' },
  conflict: { text: 'text-amber-800', dot: 'bg-amber-500' },
};

/** The project's name as the server gave it, else as this device's copies know it. */
function projectName(
  entry: OutboxEntry,
  corpus: Corpus | undefined,
  stored: string | undefined,
): string {
  if (corpus) return corpus.name;
  if (stored) return stored;
  const named = (value: unknown) =>
    (value as { corpus?: { name?: string } } | null)?.corpus?.name ??
    (value as { data?: { corpus?: { name?: string } } } | null)?.data?.corpus?.name;
  return named(entry.current) ?? named(entry.previous) ?? 'Unknown project';
}

export interface PendingChangeItemProps {
  entry: OutboxEntry;
  /** The project's name from the local store, while the project itself is not loaded. */
  project?: string;
  /** The elements the edits name, as this device knows them. */
  elements: Readonly<Record<string, ElementFacts>>;
  actions: SyncActions;
  now: number;
}

/** One queued edit: what it does, where, since when, how it stands, and what can be done. */
export function PendingChangeItem({
  entry,
  project,
  elements,
  actions,
  now,
}: PendingChangeItemProps) {
  const seq = entry.seq!;
  const labelId = useId();
  const [confirming, setConfirming] = useState(false);
  const { data: corpus } = useQuery(corpusQuery(entry.corpusId));
  const busy = actions.busy.has(seq);
  const queued = new Date(entry.createdAt);
  const style = STATUS_STYLE[entry.status];
  const types = corpus?.types;
  const description = describeChange(entry, {
    elements,
    typeName: (slug) => types?.find((type) => type.slug === slug)?.display_name ?? slug,
  });
  const conflict =
    entry.status === 'conflict' &&
    (entry.kind === 'element.update' || entry.kind === 'element.delete');

  return (
    <li aria-labelledby={labelId} className={ui.card}>
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
        <div className="min-w-0">
          <p id={labelId} className="font-medium break-words text-slate-900">
            {description}
          </p>
          <p className="mt-0.5 text-sm text-slate-500">
            {projectName(entry, corpus, project)} · Queued{' '}
            <time dateTime={queued.toISOString()} title={queued.toLocaleString()}>
              {relativeTime(queued.toISOString(), now)}
            </time>
          </p>
        </div>
        <div className="flex shrink-0 gap-2">
          {entry.status === 'failed' && (
            <button
              type="button"
              className={ui.secondaryButton}
              disabled={busy}
              onClick={() => void actions.retry(seq)}
            >
              Retry
            </button>
          )}
          {entry.status !== 'sending' && !conflict && (
            <button
              type="button"
              className={ui.dangerOutlineButton}
              disabled={busy}
              onClick={() => setConfirming(true)}
            >
              Discard
            </button>
          )}
        </div>
      </div>
      <p className={`mt-2 flex items-baseline gap-2 text-sm ${style.text}`}>
        <span aria-hidden="true" className={`size-2 shrink-0 rounded-full ${style.dot}`} />
        <span className="break-words">{statusText(entry)}</span>
      </p>
      {conflict && <ConflictChoice entry={entry} types={corpus?.types} actions={actions} />}
      <ConfirmDialog
        open={confirming}
        title="Discard this change?"
        confirmLabel="Discard"
        pending={busy}
        onClose={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          void actions.discard(seq);
        }}
      >
        <p className="font-medium text-slate-800">{description}</p>
        <p className="mt-2">
          It will not be sent to the server, and this device goes back to how it was before it.
          {entry.kind === 'element.create' && ' Changes made to what it creates go with it.'}
        </p>
      </ConfirmDialog>
    </li>
  );
}
