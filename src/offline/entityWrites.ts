/**
 * The entity writes the details panel makes (transcriptions, classifications, metadata, through
 * the outbox: applied here first, sent now when the API answers so a refusal shows where the
 * user acted, later otherwise), and the query refresh that shows them.
 */
import type { QueryClient } from '@tanstack/react-query';
import { elementKeys } from '@/api/elements';
import * as edits from './entityEdits';
import { entityKeys } from './queries';
import { offlineRuntime } from './runtime';
import { submitEdit, type EditOutcome } from './submitEdit';

type Ref = edits.ElementRefForEdit;

const run = (apply: () => Promise<string>): Promise<EditOutcome> =>
  submitEdit(offlineRuntime, apply);

export const entityWrites = {
  createTranscription: (
    element: Ref,
    text: string,
    orientation: Parameters<typeof edits.createTranscription>[3],
  ) => run(() => edits.createTranscription(offlineRuntime.db, element, text, orientation)),
  updateTranscription: (
    id: string,
    corpusId: string,
    changes: Parameters<typeof edits.updateTranscription>[3],
  ) => run(() => edits.updateTranscription(offlineRuntime.db, id, corpusId, changes)),
  deleteTranscription: (id: string, corpusId: string) =>
    run(() => edits.deleteTranscription(offlineRuntime.db, id, corpusId)),
  createMetadata: (element: Ref, metadata: Parameters<typeof edits.createMetadata>[2]) =>
    run(() => edits.createMetadata(offlineRuntime.db, element, metadata)),
  updateMetadata: (
    id: string,
    corpusId: string,
    changes: Parameters<typeof edits.updateMetadata>[3],
  ) => run(() => edits.updateMetadata(offlineRuntime.db, id, corpusId, changes)),
  deleteMetadata: (id: string, corpusId: string) =>
    run(() => edits.deleteMetadata(offlineRuntime.db, id, corpusId)),
  classify: (element: Ref, mlClass: { id: string; name: string }) =>
    run(() => edits.createClassification(offlineRuntime.db, element, mlClass)),
  moderate: (element: Ref, id: string, action: 'validate' | 'reject') =>
    run(async () => {
      await edits.moderateClassification(offlineRuntime.db, element, id, action);
      return id;
    }),
};

/** Shows the store's new state: the element (its classifications) and its entity lists. */
export async function refreshElementEntities(queryClient: QueryClient, elementId: string) {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: elementKeys.detail(elementId) }),
    queryClient.invalidateQueries({ queryKey: entityKeys.transcriptions(elementId) }),
    queryClient.invalidateQueries({ queryKey: entityKeys.metadata(elementId) }),
  ]);
}
