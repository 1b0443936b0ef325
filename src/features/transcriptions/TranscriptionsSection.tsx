/**
 * Transcriptions of the element details panel (spec 001 §2, §4, §5, §6): each shown in its
 * direction with its entities highlighted; manual ones edited in place, worker ones copied into
 * a manual one; deletion by the rights of §6; and the new transcription form. Every change goes
 * through the outbox, so it works offline.
 */
import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Element, TextOrientation, Transcription } from '@/api/types';
import { errorMessage } from '@/api/errors';
import { PanelSection } from '@/components/PanelSection';
import { notify } from '@/components/notifications/store';
import { ui } from '@/components/styles';
import { entityWrites, refreshElementEntities } from '@/offline/entityWrites';
import { storedTranscriptionsQuery } from '@/offline/queries';
import { savedNotice } from '@/offline/runtime';
import { EntityText } from './EntityText';
import { ManageTranscriptionsModal } from './ManageTranscriptionsModal';
import { TranscriptionForm } from './TranscriptionForm';
import { isRightToLeft } from './orientation';

export const MESSAGES = {
  created: 'Transcription created.',
  deleted: 'Transcription deleted.',
  copied: 'Transcription copied to a manual transcription',
  createError: 'An error occurred during transcription creation:',
  deleteError: 'An error occurred during transcription deletion:',
  updateError: 'An error occurred when updating the transcription:',
  copyError: 'Failed to copy transcription text:',
  writeToDelete: 'A write right on the project is required to delete a transcription',
  writeToCopy: 'A write right on the project is required to copy a transcription',
  writeToCreate: 'A write right on the project is required to create a transcription',
  adminToDelete:
    'An admin right on the project is required to delete a transcription with a worker run',
} as const;

export interface TranscriptionsSectionProps {
  element: Element;
  canWrite: boolean;
  isAdmin: boolean;
  onWorkerRun?: (id: string) => void;
}

export function TranscriptionsSection({
  element,
  canWrite,
  isAdmin,
  onWorkerRun,
}: TranscriptionsSectionProps) {
  const queryClient = useQueryClient();
  const transcriptions = useQuery(storedTranscriptionsQuery(element.id));
  const [editing, setEditing] = useState<string | null>(null);
  const [managing, setManaging] = useState(false);
  const ref = { id: element.id, corpusId: element.corpus.id };
  const refresh = () => refreshElementEntities(queryClient, element.id);

  const act = async (run: () => Promise<unknown>, success: string, failure: string) => {
    try {
      await run();
      notify({ type: 'success', text: savedNotice(success) });
      return true;
    } catch (error) {
      notify({ type: 'error', text: `${failure} ${errorMessage(error)}` });
      return false;
    } finally {
      await refresh();
    }
  };

  const deleteBlocked = (item: Transcription) =>
    !canWrite
      ? MESSAGES.writeToDelete
      : item.worker_run && !isAdmin
        ? MESSAGES.adminToDelete
        : null;

  return (
    <>
      <PanelSection
        title="Transcriptions"
        actions={
          canWrite && (
            <button type="button" className={ui.secondaryButton} onClick={() => setManaging(true)}>
              Manage
            </button>
          )
        }
      >
        {transcriptions.isPending ? (
          <p className="text-sm text-slate-500">Loading…</p>
        ) : transcriptions.isError ? (
          <p role="alert" className="text-sm text-red-700">
            {errorMessage(transcriptions.error)}
          </p>
        ) : transcriptions.data.length === 0 ? (
          <p className="text-sm text-slate-500">No transcription</p>
        ) : (
          <ul className="flex flex-col gap-2">
            {transcriptions.data.map((item) => (
              // Kept under the id it had when made here: the server's id, coming while its
              // form is open, neither closes the form nor loses what is typed in it.
              <li
                key={item.createdAs ?? item.id}
                className="rounded border border-slate-200 p-2 text-sm"
              >
                {editing === (item.createdAs ?? item.id) ? (
                  <TranscriptionForm
                    initial={{ text: item.text, orientation: item.orientation }}
                    submitLabel="Save"
                    onCancel={() => setEditing(null)}
                    onSubmit={async (text, orientation) => {
                      const done = await act(
                        () =>
                          entityWrites.updateTranscription(item.id, element.corpus.id, {
                            text,
                            orientation,
                          }),
                        'Transcription updated.',
                        MESSAGES.updateError,
                      );
                      if (done) setEditing(null);
                    }}
                  />
                ) : (
                  <TranscriptionView
                    item={item}
                    canWrite={canWrite}
                    deleteBlocked={deleteBlocked(item)}
                    onWorkerRun={onWorkerRun}
                    onEdit={() => setEditing(item.createdAs ?? item.id)}
                    onCopy={() =>
                      void act(
                        () => entityWrites.createTranscription(ref, item.text, item.orientation),
                        MESSAGES.copied,
                        MESSAGES.copyError,
                      )
                    }
                    onDelete={() =>
                      void act(
                        () => entityWrites.deleteTranscription(item.id, element.corpus.id),
                        MESSAGES.deleted,
                        MESSAGES.deleteError,
                      )
                    }
                  />
                )}
              </li>
            ))}
          </ul>
        )}
      </PanelSection>
      {canWrite && (
        <PanelSection title="New transcription">
          <TranscriptionForm
            initial={{ text: '', orientation: 'horizontal-lr' }}
            submitLabel="Create"
            resetOnSubmit
            onSubmit={(text, orientation: TextOrientation) =>
              act(
                () => entityWrites.createTranscription(ref, text, orientation),
                MESSAGES.created,
                MESSAGES.createError,
              )
            }
          />
        </PanelSection>
      )}
      {managing && (
        <ManageTranscriptionsModal
          element={element}
          transcriptions={transcriptions.data ?? []}
          onClose={() => setManaging(false)}
          onCreate={async (text, orientation) => {
            await act(
              () => entityWrites.createTranscription(ref, text, orientation),
              MESSAGES.created,
              MESSAGES.createError,
            );
          }}
        />
      )}
    </>
  );
}

function TranscriptionView({
  item,
  canWrite,
  deleteBlocked,
  onWorkerRun,
  onEdit,
  onCopy,
  onDelete,
}: {
  item: Transcription;
  canWrite: boolean;
  deleteBlocked: string | null;
  onWorkerRun?: (id: string) => void;
  onEdit: () => void;
  onCopy: () => void;
  onDelete: () => void;
}) {
  const usedByEntities = (item.entity_count ?? 0) > 0;
  const editBlocked = !canWrite
    ? 'A write right on the project is required to edit a transcription'
    : usedByEntities
      ? 'This transcription is used by entities and cannot be edited'
      : null;
  return (
    <div className="flex flex-col gap-1">
      <p
        dir={isRightToLeft(item.orientation) ? 'rtl' : 'ltr'}
        className="font-transcription whitespace-pre-wrap text-slate-900"
      >
        <EntityText transcription={item} />
      </p>
      <div className="flex flex-wrap items-center gap-2 text-xs text-slate-500">
        {item.worker_run ? (
          <button
            type="button"
            className="text-brand-700 underline"
            onClick={() => onWorkerRun?.(item.worker_run!.id)}
          >
            {item.worker_run.summary}
          </button>
        ) : (
          <span>Manual</span>
        )}
        <span className="ml-auto flex gap-1">
          {item.worker_run ? (
            <button
              type="button"
              className={ui.secondaryButton}
              aria-disabled={!canWrite}
              title={canWrite ? 'Copy into a manual transcription' : MESSAGES.writeToCopy}
              onClick={() => canWrite && onCopy()}
            >
              Copy
            </button>
          ) : (
            <button
              type="button"
              className={ui.secondaryButton}
              aria-disabled={!!editBlocked}
              title={editBlocked ?? 'Edit'}
              onClick={() => !editBlocked && onEdit()}
            >
              Edit
            </button>
          )}
          <button
            type="button"
            className={ui.dangerOutlineButton}
            aria-disabled={!!deleteBlocked}
            title={deleteBlocked ?? 'Delete'}
            onClick={() => !deleteBlocked && onDelete()}
          >
            Delete
          </button>
        </span>
      </div>
    </div>
  );
}
