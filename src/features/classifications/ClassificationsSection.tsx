/**
 * Classifications of the element details panel (spec 001 §2, §4, §5): each with its class, a
 * confidence tag, validate and reject (a trash icon for a manual one), and an add form with a
 * searchable class selector. Every change goes through the outbox.
 */
import { useMemo, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Element, ElementClassification } from '@/api/types';
import { errorMessage } from '@/api/errors';
import { PanelSection } from '@/components/PanelSection';
import { notify } from '@/components/notifications/store';
import { ui } from '@/components/styles';
import { storedClassesQuery } from '@/offline/queries';
import { entityWrites, refreshElementEntities } from '@/offline/entityWrites';
import { savedNotice } from '@/offline/runtime';
import { ConfidenceTag } from './ConfidenceTag';
import { matchClasses } from './classSearch';

export const EMPTY = 'No classification for this project';
export const DELETED_ON_REJECT = 'Classification deleted due to rejection.';
export const DUPLICATE_MANUAL = 'A manual classification for this ML class already exists.';
/** How many matching classes the selector lists before 'and N more classes'. */
export const SHOWN_CLASSES = 10;

export interface ClassificationsSectionProps {
  element: Element;
  canWrite: boolean;
  /** Opens the worker run details of a result. */
  onWorkerRun?: (id: string) => void;
}

export function ClassificationsSection({
  element,
  canWrite,
  onWorkerRun,
}: ClassificationsSectionProps) {
  const queryClient = useQueryClient();
  const classes = useQuery({ ...storedClassesQuery(element.corpus.id), enabled: canWrite });
  const classifications = element.classifications ?? [];
  const [busy, setBusy] = useState<string | null>(null);
  const ref = { id: element.id, corpusId: element.corpus.id };
  const hasClasses = (classes.data?.length ?? 0) > 0;
  // Spec 001 §2: shown to a writer of a project with ML classes, or when there are some.
  if (!(canWrite && hasClasses) && classifications.length === 0) return null;

  const moderate = async (item: ElementClassification, action: 'validate' | 'reject') => {
    // Validating what is validated, or rejecting what is rejected, changes nothing.
    if (busy || (action === 'validate' && item.state === 'validated')) return;
    if (action === 'reject' && item.state === 'rejected') return;
    setBusy(item.id);
    try {
      await entityWrites.moderate(ref, item.id, action);
      if (action === 'reject' && !item.worker_run) {
        notify({ type: 'success', text: savedNotice(DELETED_ON_REJECT) });
      }
    } catch (error) {
      notify({ type: 'error', text: errorMessage(error) });
    } finally {
      // Busy until the element shows the new state: a second click meanwhile would repeat it.
      await refreshElementEntities(queryClient, element.id);
      setBusy(null);
    }
  };

  return (
    <PanelSection title="Classifications">
      {classifications.length === 0 ? (
        <p className="text-sm text-slate-500">{EMPTY}</p>
      ) : (
        <ul className="flex flex-col gap-1">
          {classifications.map((item) => (
            <li key={item.id} className="flex items-center gap-2 text-sm">
              {/* A rejected worker result stays listed (it may be validated later), struck through. */}
              <span
                className={`min-w-0 flex-1 truncate font-medium ${item.state === 'rejected' ? 'text-slate-400 line-through' : 'text-slate-800'}`}
                title={item.state === 'rejected' ? 'Rejected' : undefined}
              >
                {item.ml_class.name}
              </span>
              <ConfidenceTag value={item.confidence} />
              {item.worker_run && (
                <button
                  type="button"
                  className="text-xs text-brand-700 underline"
                  title={item.worker_run.summary}
                  onClick={() => onWorkerRun?.(item.worker_run!.id)}
                >
                  worker
                </button>
              )}
              <button
                type="button"
                className={ui.secondaryButton}
                aria-label={`Validate ${item.ml_class.name}`}
                disabled={!canWrite || busy !== null || item.state === 'validated'}
                onClick={() => void moderate(item, 'validate')}
              >
                ✓
              </button>
              <button
                type="button"
                className={item.worker_run ? ui.secondaryButton : ui.dangerOutlineButton}
                aria-label={
                  item.worker_run ? `Reject ${item.ml_class.name}` : `Delete ${item.ml_class.name}`
                }
                disabled={!canWrite || busy !== null || item.state === 'rejected'}
                onClick={() => void moderate(item, 'reject')}
              >
                {item.worker_run ? '✗' : <TrashIcon />}
              </button>
            </li>
          ))}
        </ul>
      )}
      {canWrite && hasClasses && (
        <AddClassification
          classes={classes.data ?? []}
          existing={classifications}
          onAdd={async (mlClass) => {
            try {
              await entityWrites.classify(ref, mlClass);
            } finally {
              await refreshElementEntities(queryClient, element.id);
            }
          }}
        />
      )}
    </PanelSection>
  );
}

function AddClassification({
  classes,
  existing,
  onAdd,
}: {
  classes: readonly { id: string; name: string }[];
  existing: readonly ElementClassification[];
  onAdd: (mlClass: { id: string; name: string }) => Promise<void>;
}) {
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<{ id: string; name: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const matches = useMemo(() => matchClasses(classes, search), [classes, search]);
  const shown = matches.slice(0, SHOWN_CLASSES);

  const submit = async () => {
    if (!chosen) return;
    if (existing.some((item) => !item.worker_run && item.ml_class.id === chosen.id)) {
      setError(DUPLICATE_MANUAL);
      return;
    }
    setPending(true);
    setError(null);
    try {
      await onAdd(chosen);
      setChosen(null);
      setSearch('');
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setPending(false);
    }
  };

  return (
    <form
      className="flex flex-col gap-1"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <label className={ui.label}>
        Add a classification
        <input
          className={ui.input}
          value={chosen ? chosen.name : search}
          placeholder="Search a class"
          onChange={(event) => {
            setChosen(null);
            setSearch(event.target.value);
          }}
        />
      </label>
      {!chosen && search && (
        <ul role="listbox" aria-label="Classes" className="rounded border border-slate-200">
          {shown.map((mlClass) => (
            <li
              key={mlClass.id}
              role="option"
              aria-selected={false}
              tabIndex={0}
              className="cursor-pointer px-2 py-1 text-sm hover:bg-slate-100"
              onClick={() => setChosen(mlClass)}
              onKeyDown={(event) => event.key === 'Enter' && setChosen(mlClass)}
            >
              {mlClass.name}
            </li>
          ))}
          {matches.length > shown.length && (
            <li className="px-2 py-1 text-xs text-slate-500">
              and {matches.length - shown.length} more classes
            </li>
          )}
          {matches.length === 0 && <li className="px-2 py-1 text-xs text-slate-500">No class</li>}
        </ul>
      )}
      {error && (
        <p role="alert" className={ui.fieldError}>
          {error}
        </p>
      )}
      <button type="submit" className={ui.primaryButton} disabled={!chosen || pending}>
        Add
      </button>
    </form>
  );
}

function TrashIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill="currentColor">
      <path d="M7 2h6l1 2h4v2H2V4h4l1-2zm-3 5h12l-1 11H5L4 7zm4 2v7h1.5V9H8zm3.5 0v7H13V9h-1.5z" />
    </svg>
  );
}
