import type { KindRegistry } from './types';
import { elementCreate, elementDelete, elementLink, elementMove, elementUpdate } from './elements';

/** What each kind of queued edit sends and does to the local store. */
export const ELEMENT_KINDS: KindRegistry = {
  'element.create': elementCreate,
  'element.update': elementUpdate,
  'element.delete': elementDelete,
  'element.move': elementMove,
  'element.link': elementLink,
};
