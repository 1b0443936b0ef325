/**
 * A worker's configurations (spec 000 §3, §9 "Configuration filters: Enabled, Archived"): the
 * enabled or the archived ones, a page at a time, each opening read-only in the editor; New
 * configuration opens the editor on the version's defaults.
 */
import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  WORKERS_PAGE_SIZE,
  workerConfigurationQuery,
  workerConfigurationsQuery,
  type Worker,
  type WorkerConfiguration,
  type WorkerVersion,
} from '@/api/workers';
import { errorMessage } from '@/api/errors';
import type { ElementType } from '@/api/types';
import { GuardedButton } from '@/components/GuardedButton';
import { useNeedsNetwork } from '@/components/NeedsNetwork';
import { PaginationBar } from '@/components/PaginationBar';
import { useErrorNotification } from '@/components/notifications/useErrorNotification';
import { ui } from '@/components/styles';
import { ConfigurationEditor, type EditorStart } from './configuration/ConfigurationEditor';
import { isForbidden, useListErrorNotification } from './listErrors';

interface Editing {
  start: Exclude<EditorStart, { mode: 'view' }>;
  /** The configuration shown when the editor opened: following a link to another closes it. */
  under: string | null;
}

export function WorkerConfigurationsSection({
  worker,
  version,
  elementTypes,
  openId,
  onOpenId,
}: {
  worker: Worker;
  /** The version whose fields new configurations fill. */
  version: WorkerVersion | null;
  elementTypes: ElementType[] | null;
  /** The configuration shown read-only, from the address. */
  openId: string | null;
  onOpenId: (id: string | null) => void;
}) {
  const [archived, setArchived] = useState(false);
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<Editing | null>(null);
  const offline = useNeedsNetwork();
  const list = useQuery(workerConfigurationsQuery(worker.id, archived, page));
  useListErrorNotification(list.error);
  const opened = useQuery({
    ...workerConfigurationQuery(openId ?? ''),
    enabled: !!openId,
  });
  useErrorNotification(opened.error);
  // A configuration that cannot be read leaves the address as the list.
  useEffect(() => {
    if (opened.isError) onOpenId(null);
  }, [opened.isError, onOpenId]);

  const current = editing && editing.under === openId ? editing : null;
  const close = () => {
    setEditing(null);
    if (openId) onOpenId(null);
  };
  const open = (configuration: WorkerConfiguration) => {
    setEditing(null);
    onOpenId(configuration.id);
  };
  const clone = (configuration: WorkerConfiguration) =>
    setEditing({ start: { mode: 'clone', from: configuration }, under: openId });

  const start: EditorStart | null = current
    ? current.start
    : opened.data && openId
      ? { mode: 'view', configuration: opened.data }
      : null;
  const editorKey = current
    ? `${current.start.mode}-${current.start.mode === 'clone' ? current.start.from.id : ''}`
    : `view-${openId}`;

  return (
    <section aria-labelledby="configurations-heading" className={`${ui.card} space-y-3`}>
      <header className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="configurations-heading" className="text-lg font-semibold text-slate-900">
          Configurations
        </h2>
        <GuardedButton
          blocked={offline}
          className={ui.primaryButton}
          onClick={() => setEditing({ start: { mode: 'new' }, under: openId })}
        >
          New configuration
        </GuardedButton>
      </header>
      <div role="radiogroup" aria-label="Configuration filter" className="flex gap-1">
        {[
          { label: 'Enabled', value: false },
          { label: 'Archived', value: true },
        ].map((filter) => (
          <button
            key={filter.label}
            type="button"
            role="radio"
            aria-checked={archived === filter.value}
            className={archived === filter.value ? ui.primaryButton : ui.secondaryButton}
            onClick={() => {
              setArchived(filter.value);
              setPage(1);
            }}
          >
            {filter.label}
          </button>
        ))}
      </div>
      {list.isPending ? (
        <p role="status" className="text-slate-600">
          Loading…
        </p>
      ) : list.isError ? (
        <p role="alert" className="text-slate-600">
          {isForbidden(list.error)
            ? `You cannot list this worker's configurations: ${errorMessage(list.error)}`
            : 'The configurations could not be loaded.'}
        </p>
      ) : list.data.count === 0 ? (
        <p className="text-slate-600">
          {archived ? 'No archived configuration.' : 'No configuration yet.'}
        </p>
      ) : (
        <>
          <ul className="divide-y divide-slate-100" aria-label="Configurations">
            {list.data.results.map((configuration) => (
              <li key={configuration.id} className="flex items-center justify-between gap-2 py-2">
                <button
                  type="button"
                  className={`${ui.link} text-left`}
                  onClick={() => open(configuration)}
                >
                  {configuration.name}
                </button>
                <button
                  type="button"
                  className={ui.secondaryButton}
                  aria-label={`Clone ${configuration.name}`}
                  onClick={() => clone(configuration)}
                >
                  Clone
                </button>
              </li>
            ))}
          </ul>
          <PaginationBar
            count={list.data.count}
            page={page}
            pageSize={WORKERS_PAGE_SIZE}
            singular="configuration"
            label="Configurations pages"
            showJump={false}
            onPageChange={setPage}
          />
        </>
      )}
      {start && (
        <ConfigurationEditor
          key={editorKey}
          worker={worker}
          version={version}
          start={start}
          elementTypes={elementTypes}
          onClose={close}
          onOpen={open}
          onClone={clone}
        />
      )}
    </section>
  );
}
