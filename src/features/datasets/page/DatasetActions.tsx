/**
 * What can be done to a dataset from its page: edit it (the create/edit modal), clone it,
 * reopen it once complete or failed, delete it, download its split as CSV. Each action says in
 * its tooltip why it cannot be used.
 */
import { useState, type ReactNode } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import {
  cloneDataset,
  datasetKeys,
  deleteDataset,
  updateDataset,
  type Dataset,
} from '@/api/datasets';
import { GuardedButton } from '@/components/GuardedButton';
import { useNeedsNetwork } from '@/components/NeedsNetwork';
import { ConfirmDeletion } from '@/components/modal/ConfirmDeletion';
import { notify, notifyError } from '@/components/notifications/store';
import { ui } from '@/components/styles';
import { DatasetFormModal } from '../DatasetFormModal';
import { CsvDownload } from './CsvDownload';
import { adminBlocked, cloneBlocked, editBlocked, type DatasetAccess } from '../datasetRights';

export const BUILDING_NO_CLONE = 'A dataset being built cannot be cloned';

export function DatasetActions({
  dataset,
  access,
  children,
}: {
  dataset: Dataset;
  access: DatasetAccess;
  /** Actions of other features, after Clone. */
  children?: ReactNode;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [shown, setShown] = useState<'edit' | 'delete' | null>(null);
  // Cloning, reopening and deleting are the server's to do: offline they say so.
  const offline = useNeedsNetwork();
  const adminOnly = adminBlocked(access) ?? offline;

  const clone = useMutation({
    mutationFn: () => cloneDataset(dataset.id),
    onSuccess: (copy) => {
      void queryClient.invalidateQueries({ queryKey: datasetKeys.corpus(dataset.corpus_id) });
      queryClient.setQueryData(datasetKeys.detail(copy.id), copy);
      notify({ type: 'success', text: `Dataset cloned as ${copy.name}` });
      void navigate({ to: '/dataset/$datasetId', params: { datasetId: copy.id } });
    },
    onError: (error) => notifyError(error, 'An error occurred while cloning the dataset'),
  });

  const reopen = useMutation({
    mutationFn: () => updateDataset(dataset.id, { state: 'open' }),
    onSuccess: (saved) => {
      queryClient.setQueryData(datasetKeys.detail(saved.id), saved);
      // Every view naming the dataset shows its state: the lists, and each element's table
      // whose remove buttons open with it.
      void queryClient.invalidateQueries({ queryKey: datasetKeys.all });
      notify({ type: 'success', text: 'Dataset reopened' });
    },
    onError: (error) => notifyError(error, 'An error occurred while reopening the dataset'),
  });

  const remove = async () => {
    try {
      await deleteDataset(dataset.id);
    } catch (error) {
      notifyError(error, 'An error occurred while deleting the dataset');
      throw error;
    }
    notify({ type: 'success', text: `Dataset ${dataset.name} deleted` });
    await navigate({ to: '/browse/$corpusId', params: { corpusId: dataset.corpus_id } });
    queryClient.removeQueries({ queryKey: datasetKeys.detail(dataset.id) });
    void queryClient.invalidateQueries({ queryKey: datasetKeys.corpus(dataset.corpus_id) });
  };

  const done = dataset.state === 'complete' || dataset.state === 'error';
  return (
    <div className="flex flex-wrap items-center gap-2">
      <GuardedButton
        className={ui.primaryButton}
        blocked={editBlocked(access)}
        onClick={() => setShown('edit')}
      >
        Edit
      </GuardedButton>
      <GuardedButton
        className={ui.secondaryButton}
        blocked={
          cloneBlocked(access) ?? (dataset.state === 'building' ? BUILDING_NO_CLONE : offline)
        }
        disabled={clone.isPending}
        onClick={() => clone.mutate()}
      >
        {clone.isPending ? 'Cloning…' : 'Clone'}
      </GuardedButton>
      {children}
      {done && (
        <GuardedButton
          className={ui.secondaryButton}
          blocked={adminOnly}
          disabled={reopen.isPending}
          onClick={() => reopen.mutate()}
        >
          Reopen
        </GuardedButton>
      )}
      <CsvDownload datasetId={dataset.id}>Download CSV</CsvDownload>
      <GuardedButton
        className={ui.dangerOutlineButton}
        blocked={adminOnly}
        onClick={() => setShown('delete')}
      >
        Delete
      </GuardedButton>
      {shown === 'edit' && (
        <DatasetFormModal
          corpusId={dataset.corpus_id}
          dataset={dataset}
          canAdmin={access.canAdmin}
          onClose={() => setShown(null)}
        />
      )}
      {shown === 'delete' && (
        <ConfirmDeletion
          title="Delete dataset"
          what={`the dataset ${dataset.name} and its sets`}
          onDelete={remove}
          onClose={() => setShown(null)}
        />
      )}
    </div>
  );
}
