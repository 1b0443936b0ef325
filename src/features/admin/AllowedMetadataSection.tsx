import { useEffect, useId, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { errorMessage, fieldErrors } from '@/api/errors';
import type { MetadataType } from '@/api/types';
import { GuardedButton } from '@/components/GuardedButton';
import { OfflineNote, useNeedsNetwork } from '@/components/NeedsNetwork';
import { PaginationBar, lastPage } from '@/components/PaginationBar';
import { notify, notifyError } from '@/components/notifications/store';
import { useErrorNotification } from '@/components/notifications/useErrorNotification';
import { ui } from '@/components/styles';
import { METADATA_TYPES, metadataTypeLabel as typeLabel } from '@/lib/metadataTypes';
import {
  ADMIN_PAGE_SIZE,
  allowedMetadataPageQuery,
  useCreateAllowedMetadata,
  useDeleteAllowedMetadata,
} from './api';
import { ListTable } from '@/components/ListTable';

/**
 * The names and types the metadata form offers outside free editing (spec 001 §3): what the
 * metadata panel's "Use the administration panel to add them." sends admins to.
 */
export function AllowedMetadataSection({ corpusId }: { corpusId: string }) {
  const [page, setPage] = useState(1);
  const allowed = useQuery(allowedMetadataPageQuery(corpusId, page));
  const removal = useDeleteAllowedMetadata(corpusId);
  const offline = useNeedsNetwork();
  useErrorNotification(allowed.error);

  const count = allowed.data?.count ?? 0;
  const pages = lastPage(count, ADMIN_PAGE_SIZE);
  // Deleting the only entry of the last page would leave an empty page behind.
  useEffect(() => {
    if (allowed.data && !allowed.isPlaceholderData && page > pages) setPage(pages);
  }, [allowed.data, allowed.isPlaceholderData, page, pages]);

  return (
    <section aria-labelledby="allowed-heading" className={`${ui.card} space-y-4 p-6`}>
      <h2 id="allowed-heading" className="text-lg font-semibold text-slate-900">
        Allowed metadata
      </h2>
      <p className="text-sm text-slate-600">
        The metadata names and types annotators can choose from on this project&apos;s elements.
      </p>
      <OfflineNote action="change the allowed metadata" />
      <AddAllowedForm corpusId={corpusId} offline={offline} />
      {allowed.isPending ? (
        <p role="status" className="text-slate-600">
          Loading…
        </p>
      ) : allowed.isError ? (
        <p className="text-slate-600">The allowed metadata could not be loaded.</p>
      ) : count === 0 ? (
        <p className="text-slate-600">There are no allowed metadata for this project.</p>
      ) : (
        <>
          <ListTable caption="Allowed metadata" columns={['Name', 'Type']} last="Actions">
            {allowed.data.results.map((entry) => (
              <tr key={entry.id}>
                <td className="py-2 pr-4 font-medium text-slate-900">{entry.name}</td>
                <td className="py-2 pr-4 text-slate-600">{typeLabel(entry.type)}</td>
                <td className="py-2 text-right">
                  <GuardedButton
                    className={ui.dangerOutlineButton}
                    aria-label={`Delete ${entry.name} (${typeLabel(entry.type)})`}
                    blocked={
                      offline ??
                      (removal.isPending && removal.variables.id === entry.id ? 'Deleting…' : null)
                    }
                    onClick={() =>
                      removal.mutate(entry, {
                        onSuccess: () =>
                          notify({
                            type: 'success',
                            text: `${entry.name} (${typeLabel(entry.type)}) is no longer allowed.`,
                          }),
                        onError: (error) => notifyError(error),
                      })
                    }
                  >
                    Delete
                  </GuardedButton>
                </td>
              </tr>
            ))}
          </ListTable>
          {count > ADMIN_PAGE_SIZE && (
            <PaginationBar
              count={count}
              page={page}
              pageSize={ADMIN_PAGE_SIZE}
              singular="allowed metadata"
              plural="allowed metadata"
              label="Allowed metadata pages"
              onPageChange={setPage}
            />
          )}
        </>
      )}
    </section>
  );
}

function AddAllowedForm({ corpusId, offline }: { corpusId: string; offline: string | null }) {
  const nameId = useId();
  const typeId = useId();
  const [name, setName] = useState('');
  const [type, setType] = useState<MetadataType>('text');
  const create = useCreateAllowedMetadata(corpusId);
  const errors = fieldErrors(create.error);
  const formError =
    create.error && !errors.name && !errors.type ? errorMessage(create.error) : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (offline || create.isPending || !name.trim()) return;
    create.mutate(
      { name: name.trim(), type },
      {
        onSuccess: (added) => {
          setName('');
          notify({
            type: 'success',
            text: `${added.name} (${typeLabel(added.type)}) is now allowed.`,
          });
        },
      },
    );
  };

  return (
    <form onSubmit={submit} aria-label="Add allowed metadata" className="space-y-2">
      <div className="flex flex-wrap items-end gap-2">
        <div className="min-w-48 grow">
          <label htmlFor={nameId} className={ui.label}>
            Name
          </label>
          <input
            id={nameId}
            value={name}
            maxLength={250}
            aria-invalid={errors.name ? true : undefined}
            onChange={(event) => setName(event.target.value)}
            className={ui.input}
          />
        </div>
        <div>
          <label htmlFor={typeId} className={ui.label}>
            Type
          </label>
          <select
            id={typeId}
            value={type}
            onChange={(event) => setType(event.target.value as MetadataType)}
            className={ui.input}
          >
            {METADATA_TYPES.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
        <GuardedButton
          type="submit"
          className={ui.primaryButton}
          blocked={
            offline ?? (create.isPending ? 'Adding…' : name.trim() ? null : 'Please enter a name.')
          }
        >
          Add
        </GuardedButton>
      </div>
      {(errors.name ?? errors.type ?? (formError ? [formError] : [])).map((message) => (
        <p key={message} role="alert" className={ui.fieldError}>
          {message}
        </p>
      ))}
    </form>
  );
}
