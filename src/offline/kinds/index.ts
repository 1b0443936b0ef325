import type { KindRegistry } from './types';
import {
  classificationCreate,
  classificationReject,
  classificationValidate,
} from './classifications';
import { datasetElementAdd, datasetElementRemove, datasetSetRename } from './datasets';
import { elementCreate, elementDelete, elementLink, elementMove, elementUpdate } from './elements';
import { metadataKinds, transcriptionKinds } from './records';

/** What each kind of queued edit sends and does to the local store. */
export const OUTBOX_KINDS: KindRegistry = {
  'element.create': elementCreate,
  'element.update': elementUpdate,
  'element.delete': elementDelete,
  'element.move': elementMove,
  'element.link': elementLink,
  'transcription.create': transcriptionKinds.create,
  'transcription.update': transcriptionKinds.update,
  'transcription.delete': transcriptionKinds.delete,
  'classification.create': classificationCreate,
  'classification.validate': classificationValidate,
  'classification.reject': classificationReject,
  'metadata.create': metadataKinds.create,
  'metadata.update': metadataKinds.update,
  'metadata.delete': metadataKinds.delete,
  'dataset.element.add': datasetElementAdd,
  'dataset.element.remove': datasetElementRemove,
  'dataset.set.rename': datasetSetRename,
};
