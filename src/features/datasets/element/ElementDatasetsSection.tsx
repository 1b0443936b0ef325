/**
 * The details panel's datasets table (spec 001 §2): the datasets and sets the element is in,
 * a way to the element before and after it in each set, and taking it out of a set (after a
 * confirmation). Membership edits go through the outbox, so they work offline and show at once.
 */
import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { datasetKeys, type ElementDatasetSet } from '@/api/datasets';
import { errorMessage } from '@/api/errors';
import type { Element } from '@/api/types';
import { currentUserQuery } from '@/api/user';
import { GuardedButton } from '@/components/GuardedButton';
import { PanelSection } from '@/components/PanelSection';
import { notify } from '@/components/notifications/store';
import { ui } from '@/components/styles';
import { AddToDatasetModal } from '@/features/datasets/addTo/AddToDatasetModal';
import { SetBadge, setIndex } from '@/features/datasets/SetBadge';
import { removeElementFromSet } from '@/offline/datasetEdits';
import { useElementSets } from '@/offline/datasetReads';
import { savedNotice } from '@/offline/runtime';
import { RemoveFromSetDialog } from './RemoveFromSetDialog';
import { removeBlocked } from './removeBlocked';

export const NO_DATASETS = 'No datasets';
export const REMOVED_NOTICE = 'The element has been removed from the dataset set.';

export interface ElementDatasetsSectionProps {
  element: Element;
  canWrite: boolean;
  isAdmin: boolean;
}

const entryKey = (entry: ElementDatasetSet) => `${entry.dataset.id}:${entry.set}`;

export function ElementDatasetsSection({ element, canWrite }: ElementDatasetsSectionProps) {
  const queryClient = useQueryClient();
  const { data: user = null } = useQuery(currentUserQuery);
  const verified = !!user && (user.verified_email || user.is_admin);
  const { sets, isLoading, error } = useElementSets(element.id);
  const [removing, setRemoving] = useState<ElementDatasetSet | null>(null);
  const [adding, setAdding] = useState(false);

  const remove = async (entry: ElementDatasetSet) => {
    try {
      await removeElementFromSet({ dataset: entry.dataset, set: entry.set, elementId: element.id });
      notify({ type: 'success', text: savedNotice(REMOVED_NOTICE) });
      void queryClient.invalidateQueries({ queryKey: datasetKeys.detail(entry.dataset.id) });
      void queryClient.invalidateQueries({
        queryKey: datasetKeys.elements(entry.dataset.id, entry.set),
      });
    } catch (failure) {
      notify({ type: 'error', text: errorMessage(failure) });
      throw failure;
    }
  };

  return (
    <PanelSection
      title="Datasets"
      actions={
        canWrite && (
          <button type="button" className={ui.secondaryButton} onClick={() => setAdding(true)}>
            Add to dataset
          </button>
        )
      }
    >
      {isLoading ? (
        <p className="text-sm text-slate-500">Loading…</p>
      ) : error ? (
        <p role="alert" className="text-sm text-red-700">
          {errorMessage(error)}
        </p>
      ) : !sets || sets.length === 0 ? (
        <p className="text-sm text-slate-500">{NO_DATASETS}</p>
      ) : (
        <table className="w-full table-fixed text-left text-sm">
          <thead className="text-xs text-slate-500">
            <tr>
              <th scope="col" className="py-1 pr-2 font-medium">
                Name
              </th>
              <th scope="col" className="w-16 py-1 pr-2 font-medium">
                Set
              </th>
              <th scope="col" className="w-16 py-1 pr-2 font-medium">
                Navigation
              </th>
              {user && (
                <th scope="col" className="w-8 py-1">
                  <span className="sr-only">Remove</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {sets.map((entry) => {
              const blocked = removeBlocked({ canWrite, verified }, entry.dataset);
              return (
                <tr key={entryKey(entry)}>
                  <td className="truncate py-1 pr-2">
                    <Link
                      to="/dataset/$datasetId"
                      params={{ datasetId: entry.dataset.id }}
                      className={ui.link}
                      title={entry.dataset.name}
                    >
                      {entry.dataset.name}
                    </Link>
                  </td>
                  <td className="py-1 pr-2">
                    <SetBadge name={entry.set} index={setIndex(entry.dataset, entry.set)} />
                  </td>
                  <td className="py-1 pr-2">
                    <span className="flex gap-1">
                      <NeighbourLink
                        id={entry.previous}
                        label={`Previous element in ${entry.set} of ${entry.dataset.name}`}
                        symbol="‹"
                      />
                      <NeighbourLink
                        id={entry.next}
                        label={`Next element in ${entry.set} of ${entry.dataset.name}`}
                        symbol="›"
                      />
                    </span>
                  </td>
                  {user && (
                    <td className="py-1 text-right">
                      <GuardedButton
                        blocked={blocked}
                        title="Remove from this set"
                        aria-label={`Remove from ${entry.set} of ${entry.dataset.name}`}
                        className="rounded p-1 text-red-700 hover:bg-red-50 aria-disabled:text-slate-300 aria-disabled:hover:bg-transparent"
                        onClick={() => setRemoving(entry)}
                      >
                        <TrashIcon />
                      </GuardedButton>
                    </td>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {removing && (
        <RemoveFromSetDialog
          elementName={element.name}
          entry={removing}
          onRemove={() => remove(removing)}
          onClose={() => setRemoving(null)}
        />
      )}
      {adding && (
        <AddToDatasetModal
          corpusId={element.corpus.id}
          target={{
            kind: 'element',
            element: { id: element.id, name: element.name, type: element.type },
          }}
          onClose={() => setAdding(false)}
        />
      )}
    </PanelSection>
  );
}

/** A link to a neighbour in the set, or its place greyed out at either end of the set. */
function NeighbourLink({
  id,
  label,
  symbol,
}: {
  id: string | null;
  label: string;
  symbol: string;
}) {
  const box =
    'inline-flex size-6 items-center justify-center rounded border text-base leading-none';
  if (!id) {
    return (
      <span
        role="link"
        aria-disabled="true"
        aria-label={label}
        title={label}
        className={`${box} border-slate-200 text-slate-300`}
      >
        {symbol}
      </span>
    );
  }
  return (
    <Link
      to="/element/$id"
      params={{ id }}
      aria-label={label}
      title={label}
      className={`${box} border-slate-300 text-brand-700 hover:bg-slate-50`}
    >
      {symbol}
    </Link>
  );
}

function TrashIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill="currentColor">
      <path d="M7 2h6l1 2h4v2H2V4h4l1-2zm-3 5h12l-1 11H5L4 7zm4 2v7h1.5V9H8zm3.5 0v7H13V9h-1.5z" />
    </svg>
  );
}
