/**
 * A dataset's sets, edited in place in the edit modal (spec 001 §2): add one, rename one, delete
 * one, each at once with its own notice. Renames go through the outbox and so work offline;
 * adding and deleting need the server.
 */
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  createDatasetSet,
  datasetKeys,
  deleteDatasetSet,
  type Dataset,
  type DatasetSet,
} from '@/api/datasets';
import { isValidationError } from '@/lib/formErrors';
import { GuardedButton } from '@/components/GuardedButton';
import { ConfirmDeletion } from '@/components/modal/ConfirmDeletion';
import { notify, notifyError } from '@/components/notifications/store';
import { ui } from '@/components/styles';
import { renameSet } from '@/offline/datasetEdits';
import { SetBadge } from '../SetBadge';
import {
  DATASET_TEXT,
  createSetBlocked,
  deleteSetBlocked,
  renameSetBlocked,
  type DatasetAccess,
} from '../datasetRights';
import {
  patchCachedDataset,
  refreshDataset,
  withSetAdded,
  withSetRemoved,
  withSetRenamed,
} from '../datasetCache';
import { FieldErrors } from './TextField';

const SET_NAME_MAX = 50;

export function DatasetSetsEditor({
  dataset,
  access,
}: {
  dataset: Dataset;
  access: DatasetAccess;
}) {
  const [deleting, setDeleting] = useState<DatasetSet | null>(null);
  const queryClient = useQueryClient();
  const deleteBlocked = deleteSetBlocked(access, dataset);

  const remove = async (set: DatasetSet) => {
    try {
      await deleteDatasetSet(dataset.id, set.id);
    } catch (error) {
      notifyError(error);
      throw error;
    }
    patchCachedDataset(queryClient, dataset, (cached) => withSetRemoved(cached, set.id));
    queryClient.removeQueries({ queryKey: datasetKeys.elements(dataset.id, set.name) });
    notify({ type: 'success', text: DATASET_TEXT.setDeleted });
    void refreshDataset(queryClient);
  };

  return (
    <fieldset>
      <legend className={ui.label}>Sets</legend>
      <ul className="mt-2 flex flex-col gap-2">
        {dataset.sets.map((set, index) => (
          <SetRow
            // A rename gives the row its new name as the draft to start from.
            key={`${set.id}:${set.name}`}
            dataset={dataset}
            set={set}
            index={index}
            renameBlocked={renameSetBlocked(access, dataset)}
            deleteBlocked={deleteBlocked}
            onDelete={() => setDeleting(set)}
          />
        ))}
      </ul>
      <NewSetField dataset={dataset} blocked={createSetBlocked(access, dataset)} />
      {deleting && (
        <ConfirmDeletion
          title="Delete set"
          what={`the set ${deleting.name}`}
          onDelete={() => remove(deleting)}
          onClose={() => setDeleting(null)}
        />
      )}
    </fieldset>
  );
}

function SetRow({
  dataset,
  set,
  index,
  renameBlocked,
  deleteBlocked,
  onDelete,
}: {
  dataset: Dataset;
  set: DatasetSet;
  index: number;
  renameBlocked: string | null;
  deleteBlocked: string | null;
  onDelete: () => void;
}) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(set.name);
  const [pending, setPending] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  const name = draft.trim();
  const unchanged = name === '' || name === set.name;

  // Queued through the outbox: offline it resolves at once and is sent later; online a
  // refusal comes back here, under the field when it is about the name.
  const rename = async () => {
    if (renameBlocked || unchanged || pending) return;
    setPending(true);
    setErrors([]);
    try {
      await renameSet({ dataset, setId: set.id, name });
      patchCachedDataset(queryClient, dataset, (cached) => withSetRenamed(cached, set.id, name));
      notify({ type: 'success', text: DATASET_TEXT.setUpdated });
    } catch (error) {
      if (isValidationError(error)) setErrors(Object.values(error.fields).flat());
      else notifyError(error);
      setPending(false);
    }
  };

  return (
    <li>
      <div className="flex items-center gap-2">
        <span className="w-20 shrink-0">
          <SetBadge name={set.name} index={index} />
        </span>
        <input
          type="text"
          autoComplete="off"
          aria-label={`Name of set ${set.name}`}
          aria-invalid={errors.length > 0}
          maxLength={SET_NAME_MAX}
          value={draft}
          readOnly={!!renameBlocked}
          title={renameBlocked ?? undefined}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={(event) => {
            // Enter renames this set rather than saving the whole modal.
            if (event.key === 'Enter') {
              event.preventDefault();
              void rename();
            }
          }}
          className={`${ui.input} mt-0 min-w-0 flex-1 read-only:bg-slate-50`}
        />
        <GuardedButton
          className={ui.secondaryButton}
          blocked={renameBlocked}
          disabled={!renameBlocked && (unchanged || pending)}
          aria-label={`Rename set ${set.name}`}
          onClick={() => void rename()}
        >
          Rename
        </GuardedButton>
        <GuardedButton
          className={ui.dangerOutlineButton}
          blocked={deleteBlocked}
          aria-label={`Delete set ${set.name}`}
          onClick={onDelete}
        >
          Delete
        </GuardedButton>
      </div>
      <FieldErrors messages={errors} />
    </li>
  );
}

function NewSetField({ dataset, blocked }: { dataset: Dataset; blocked: string | null }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<string[]>([]);
  const [pending, setPending] = useState(false);

  const create = async () => {
    const trimmed = name.trim();
    if (blocked || pending || !trimmed) return;
    setPending(true);
    setErrors([]);
    try {
      const set = await createDatasetSet(dataset.id, trimmed);
      patchCachedDataset(queryClient, dataset, (cached) => withSetAdded(cached, set));
      notify({ type: 'success', text: DATASET_TEXT.setCreated(set.name) });
      setName('');
      void refreshDataset(queryClient);
    } catch (error) {
      // A refused name is told under the field; anything else in a notice.
      if (isValidationError(error)) {
        setErrors(Object.values(error.fields).flat());
      } else {
        notifyError(error);
      }
    } finally {
      setPending(false);
    }
  };

  return (
    <div className="mt-3">
      <div className="flex items-center gap-2">
        <input
          type="text"
          autoComplete="off"
          aria-label="New set name"
          placeholder="New set name"
          maxLength={SET_NAME_MAX}
          value={name}
          readOnly={!!blocked}
          title={blocked ?? undefined}
          aria-invalid={errors.length > 0}
          onChange={(event) => setName(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              void create();
            }
          }}
          className={`${ui.input} mt-0 min-w-0 flex-1 read-only:bg-slate-50`}
        />
        <GuardedButton
          className={ui.secondaryButton}
          blocked={blocked}
          disabled={!blocked && (pending || !name.trim())}
          onClick={() => void create()}
        >
          Add set
        </GuardedButton>
      </div>
      <FieldErrors messages={errors} />
    </div>
  );
}
