/**
 * Metadata of the element details panel (spec 001 §2, §5, §6): the list with add, edit and
 * delete, the form with each type's checks, the allowed-metadata warnings and an admin-only
 * free edit mode. Markdown is rendered safely. Every change goes through the outbox.
 */
import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Field, Label, Switch } from '@headlessui/react';
import type { AllowedMetadata, Element, ElementMetadataItem } from '@/api/types';
import { errorMessage } from '@/api/errors';
import { ConfirmDeletion } from '@/components/modal/ConfirmDeletion';
import { Modal } from '@/components/modal/Modal';
import { SubmitActions } from '@/components/modal/ModalActions';
import { PanelSection } from '@/components/PanelSection';
import { notify } from '@/components/notifications/store';
import { ui } from '@/components/styles';
import { MarkdownContent } from '@/components/MarkdownContent';
import { entityWrites, refreshElementEntities } from '@/offline/entityWrites';
import { storedAllowedMetadataQuery, storedMetadataQuery } from '@/offline/queries';
import { savedNotice } from '@/offline/runtime';
import {
  DATE_MAX_LENGTH,
  METADATA_MESSAGES,
  METADATA_TYPES,
  mayChange,
  validateMetadata,
  type MetadataErrors,
  type MetadataFields,
} from './metadataRules';

export interface MetadataSectionProps {
  element: Element;
  canWrite: boolean;
  /** Project admin: told where to add allowed metadata. */
  isAdmin: boolean;
  /** Site admin: may edit any metadata, and use free edit. */
  siteAdmin: boolean;
}

type Dialog =
  | { kind: 'edit'; item: ElementMetadataItem | null }
  | { kind: 'delete'; item: ElementMetadataItem };

export function MetadataSection({ element, canWrite, isAdmin, siteAdmin }: MetadataSectionProps) {
  const queryClient = useQueryClient();
  const metadata = useQuery(storedMetadataQuery(element.id));
  const allowedQuery = useQuery({
    ...storedAllowedMetadataQuery(element.corpus.id),
    enabled: canWrite,
  });
  const allowed = allowedQuery.data ?? null;
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const rights = { canWrite, siteAdmin, allowed };
  const refresh = () => refreshElementEntities(queryClient, element.id);

  return (
    <PanelSection
      title="Metadata"
      actions={
        canWrite && (
          <button
            type="button"
            className={ui.secondaryButton}
            // The form offers the allowed names: it waits for them (or for their failure).
            disabled={allowedQuery.isPending}
            onClick={() => setDialog({ kind: 'edit', item: null })}
          >
            Add
          </button>
        )
      }
    >
      {canWrite && allowed && allowed.length === 0 && (
        <p role="status" className="text-sm text-amber-800">
          {METADATA_MESSAGES.noneAllowed}{' '}
          {isAdmin || siteAdmin
            ? METADATA_MESSAGES.noneAllowedAdmin
            : METADATA_MESSAGES.noneAllowedOther}
        </p>
      )}
      {metadata.isPending ? (
        <p className="text-sm text-slate-500">Loading…</p>
      ) : metadata.isError ? (
        <p role="alert" className="text-sm text-red-700">
          {errorMessage(metadata.error)}
        </p>
      ) : metadata.data.length === 0 ? (
        <p className="text-sm text-slate-500">No metadata</p>
      ) : (
        <dl className="flex flex-col gap-1 text-sm">
          {metadata.data.map((item) => {
            const allowedToChange = mayChange(item, rights);
            return (
              <div key={item.id} className="flex items-start gap-2">
                <dt className="w-28 shrink-0 truncate font-medium text-slate-700" title={item.type}>
                  {item.name}
                </dt>
                <dd className="min-w-0 flex-1 break-words text-slate-900">
                  <MetadataValue item={item} />
                </dd>
                {canWrite && (
                  <span className="flex shrink-0 gap-1">
                    <button
                      type="button"
                      className="text-xs text-brand-700 underline aria-disabled:text-slate-400"
                      aria-disabled={!allowedToChange}
                      aria-label={`Edit ${item.name}`}
                      title={allowedToChange ? 'Edit' : METADATA_MESSAGES.protectedEdit}
                      onClick={() => allowedToChange && setDialog({ kind: 'edit', item })}
                    >
                      Edit
                    </button>
                    <button
                      type="button"
                      className="text-xs text-red-700 underline aria-disabled:text-slate-400"
                      aria-disabled={!allowedToChange}
                      aria-label={`Delete ${item.name}`}
                      title={allowedToChange ? 'Delete' : METADATA_MESSAGES.protectedDelete}
                      onClick={() => allowedToChange && setDialog({ kind: 'delete', item })}
                    >
                      Delete
                    </button>
                  </span>
                )}
              </div>
            );
          })}
        </dl>
      )}
      {dialog?.kind === 'edit' && (
        <MetadataDialog
          item={dialog.item}
          allowed={allowed}
          siteAdmin={siteAdmin}
          onClose={() => setDialog(null)}
          onSave={async (fields) => {
            try {
              if (dialog.item) {
                await entityWrites.updateMetadata(dialog.item.id, element.corpus.id, fields);
                notify({ type: 'success', text: savedNotice('Metadata updated.') });
              } else {
                await entityWrites.createMetadata(
                  { id: element.id, corpusId: element.corpus.id },
                  fields,
                );
                notify({ type: 'success', text: savedNotice('Metadata created.') });
              }
            } finally {
              await refresh();
            }
          }}
        />
      )}
      {dialog?.kind === 'delete' && (
        <DeleteMetadataDialog
          item={dialog.item}
          onClose={() => setDialog(null)}
          onDelete={async () => {
            try {
              await entityWrites.deleteMetadata(dialog.item.id, element.corpus.id);
              notify({ type: 'success', text: savedNotice('Metadata deleted.') });
            } catch (error) {
              notify({ type: 'error', text: errorMessage(error) });
            } finally {
              await refresh();
            }
          }}
        />
      )}
    </PanelSection>
  );
}

function MetadataValue({ item }: { item: ElementMetadataItem }) {
  if (item.type === 'markdown') {
    // Sanitised: a metadata value is never trusted HTML.
    return <MarkdownContent className="prose-sm" source={item.value} />;
  }
  if (item.type === 'url') {
    return (
      <a href={item.value} target="_blank" rel="noopener noreferrer" className={ui.link}>
        {item.value}
      </a>
    );
  }
  return <>{item.value}</>;
}

function MetadataDialog({
  item,
  allowed,
  siteAdmin,
  onSave,
  onClose,
}: {
  item: ElementMetadataItem | null;
  allowed: readonly AllowedMetadata[] | null;
  siteAdmin: boolean;
  onSave: (fields: MetadataFields) => Promise<void>;
  onClose: () => void;
}) {
  const [fields, setFields] = useState<MetadataFields>({
    type: item?.type ?? allowed?.[0]?.type ?? 'text',
    name: item?.name ?? allowed?.[0]?.name ?? '',
    value: item?.value ?? '',
  });
  const [freeEdit, setFreeEdit] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<MetadataErrors>({});
  const [general, setGeneral] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  // Outside free edit, site admins included, names come from the allowed list (spec 001 §5).
  const local = validateMetadata(fields, { freeEdit, allowed });
  const errors = { ...(submitted ? local : {}), ...serverErrors };
  const pickFromAllowed = !freeEdit && !!allowed && allowed.length > 0;
  const change = (patch: Partial<MetadataFields>) => {
    setFields((current) => ({ ...current, ...patch }));
    setServerErrors({});
  };

  const submit = async () => {
    setSubmitted(true);
    if (Object.keys(local).length) return;
    setPending(true);
    try {
      await onSave({ ...fields, name: fields.name.trim(), value: fields.value.trim() });
      onClose();
    } catch (error) {
      const fieldErrors = (error as { fields?: Record<string, string[]> }).fields ?? {};
      setServerErrors(
        Object.fromEntries(
          Object.entries(fieldErrors)
            .filter(([key]) => ['type', 'name', 'value'].includes(key))
            .map(([key, messages]) => [key, messages.join(' - ')]),
        ),
      );
      setGeneral(errorMessage(error));
      setPending(false);
    }
  };

  return (
    <Modal
      title={item ? 'Edit metadata' : 'Add metadata'}
      onClose={onClose}
      pending={pending}
      onSubmit={() => void submit()}
      footer={<SubmitActions label={item ? 'Save' : 'Add'} pending={pending} onCancel={onClose} />}
    >
      {siteAdmin && (
        <Field className="flex items-center gap-2">
          <Switch
            checked={freeEdit}
            onChange={setFreeEdit}
            className="group inline-flex h-5 w-9 items-center rounded-full bg-slate-300 data-[checked]:bg-amber-500"
          >
            <span className="size-3.5 translate-x-0.5 rounded-full bg-white transition group-data-[checked]:translate-x-5" />
          </Switch>
          <Label>Free edit</Label>
        </Field>
      )}
      {freeEdit && (
        <p role="status" className="text-sm font-medium text-amber-800">
          {METADATA_MESSAGES.freeEdit}
        </p>
      )}
      {pickFromAllowed ? (
        <label className={ui.label}>
          Name
          <select
            className={ui.input}
            value={`${fields.type}\u0000${fields.name}`}
            onChange={(event) => {
              const [type, name] = event.target.value.split('\u0000');
              change({ type: type!, name: name! });
            }}
          >
            {allowed!.map((option) => (
              <option key={option.id} value={`${option.type}\u0000${option.name}`}>
                {option.name} ({option.type})
              </option>
            ))}
          </select>
          {errors.name && <span className={ui.fieldError}>{errors.name}</span>}
        </label>
      ) : (
        <>
          <label className={ui.label}>
            Type
            <select
              className={ui.input}
              value={fields.type}
              onChange={(event) => change({ type: event.target.value })}
            >
              {METADATA_TYPES.map((type) => (
                <option key={type.value} value={type.value}>
                  {type.label}
                </option>
              ))}
            </select>
            {errors.type && <span className={ui.fieldError}>{errors.type}</span>}
          </label>
          <label className={ui.label}>
            Name
            <input
              className={ui.input}
              value={fields.name}
              onChange={(event) => change({ name: event.target.value })}
            />
            {errors.name && <span className={ui.fieldError}>{errors.name}</span>}
          </label>
        </>
      )}
      <label className={ui.label}>
        Value
        {fields.type === 'markdown' ? (
          <textarea
            className={ui.input}
            rows={4}
            value={fields.value}
            onChange={(event) => change({ value: event.target.value })}
          />
        ) : (
          <input
            className={ui.input}
            value={fields.value}
            maxLength={fields.type === 'date' ? DATE_MAX_LENGTH : undefined}
            placeholder={fields.type === 'date' ? 'YYYY-MM-DD' : undefined}
            inputMode={fields.type === 'numeric' ? 'decimal' : undefined}
            onChange={(event) => change({ value: event.target.value })}
          />
        )}
        {errors.value && <span className={ui.fieldError}>{errors.value}</span>}
      </label>
      {general && Object.keys(serverErrors).length === 0 && (
        <p role="alert" className={ui.fieldError}>
          {general}
        </p>
      )}
    </Modal>
  );
}

function DeleteMetadataDialog({
  item,
  onDelete,
  onClose,
}: {
  item: ElementMetadataItem;
  onDelete: () => Promise<void>;
  onClose: () => void;
}) {
  return (
    <ConfirmDeletion
      title="Delete metadata"
      what={
        <>
          the metadata <strong className="font-semibold text-slate-900">{item.name}</strong>
        </>
      }
      onDelete={onDelete}
      onClose={onClose}
    />
  );
}
