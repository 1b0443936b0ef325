/**
 * Bulk actions on the selected elements of one project (spec 001 §2 Selection page, §6, §7
 * "Selection"): delete them (DestroyCorpusSelection), move them to a folder (MoveSelection) or
 * link them to one more parent (LinkSelection). Each checks everything the caller may not do
 * before anything changes, then queues a job (selectionJobs.ts) that works in batches.
 *
 * The job gets the ids selected when the call was made: what the user saw is what is acted on,
 * even if they change their selection while the job waits in the queue.
 */
import type { Db } from '../db';
import type { Corpus, Job, User } from '../db/schema';
import { invalidPk, validationError } from '../errors';
import { enqueueJob } from '../jobs/queue';
import { checkRight, findCorpusAccess, findElementAccess, type CorpusAccess } from '../permissions';
import { LINK_MESSAGES } from './elements/links';
import { selfAndAncestorIds } from './elements/repository';
import { selectedIdsOfCorpus } from './selection';
import {
  DELETE_SELECTION_JOB,
  LINK_SELECTION_JOB,
  MOVE_SELECTION_JOB,
  type SelectionDeletePayload,
  type SelectionLinkPayload,
} from './selectionJobs';

export const BULK_MESSAGES = {
  empty: 'Your selection holds no elements of this project.',
  noWrite: 'You do not have contributor access to this project.',
  moveCycle: 'The destination cannot be one of the selected elements or one of their descendants.',
  linkCycle: 'The parent cannot be one of the selected elements or one of their descendants.',
  parentNotFolder: 'The parent must be a folder.',
} as const;

/** The project's selected ids, or a 400 when none of the selection is in it. */
async function requireSelected(db: Db, user: User, corpusId: string): Promise<string[]> {
  const ids = await selectedIdsOfCorpus(db, user, corpusId);
  if (ids.length === 0) throw validationError('non_field_errors', BULK_MESSAGES.empty, 'empty');
  return ids;
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/**
 * DELETE /corpus/{id}/selection/: the route has checked the admin right, which covers every
 * element of the project, and links never cross projects, so each selected element and each
 * descendant the deletion reaches is the caller's to delete.
 */
export async function scheduleSelectionDeletion(
  db: Db,
  user: User,
  access: CorpusAccess,
  deleteChildren: boolean,
): Promise<Job> {
  const { corpus } = checkRight(access, 'admin');
  const ids = await requireSelected(db, user, corpus.id);
  return enqueueJob(db, {
    kind: DELETE_SELECTION_JOB,
    description: `Deleting ${plural(ids.length, 'selected element', 'selected elements')}${
      deleteChildren ? ' and their children' : ''
    } of project ${corpus.name}`,
    userId: user.id,
    corpusId: corpus.id,
    payload: { corpusId: corpus.id, ids, deleteChildren } satisfies SelectionDeletePayload,
  });
}

/** The project named in the body: readable (else an invalid pk) and writable. */
async function bodyCorpus(db: Db, user: User, corpusId: string): Promise<Corpus> {
  const access = await findCorpusAccess(db, user, corpusId);
  if (!access) throw invalidPk('corpus_id', corpusId);
  if (!access.rights.includes('write')) {
    throw validationError('corpus_id', BULK_MESSAGES.noWrite, 'permission_denied');
  }
  return access.corpus;
}

/** A folder of the project, named in the body's `attr`. */
async function bodyFolder(
  db: Db,
  user: User,
  corpus: Corpus,
  attr: string,
  id: string,
  messages: { project: string; folder: string },
) {
  const found = await findElementAccess(db, user, id);
  if (!found) throw invalidPk(attr, id);
  const { element } = found;
  if (element.corpus_id !== corpus.id) throw validationError(attr, messages.project);
  const type = await db
    .selectFrom('element_types')
    .select('folder')
    .where('id', '=', element.type_id)
    .executeTakeFirstOrThrow();
  if (type.folder !== 1) throw validationError(attr, messages.folder);
  return element;
}

export type BulkLinkKind = 'move' | 'link';

const LINK_KINDS = {
  move: {
    attr: 'destination',
    job: MOVE_SELECTION_JOB,
    messages: { project: LINK_MESSAGES.sameProject, folder: LINK_MESSAGES.notFolder },
    cycle: BULK_MESSAGES.moveCycle,
    describe: (count: number, corpus: string, folder: string) =>
      `Moving ${plural(count, 'selected element', 'selected elements')} of project ${corpus} to ${folder}`,
  },
  link: {
    attr: 'parent_id',
    job: LINK_SELECTION_JOB,
    messages: { project: LINK_MESSAGES.linkProject, folder: BULK_MESSAGES.parentNotFolder },
    cycle: BULK_MESSAGES.linkCycle,
    describe: (count: number, corpus: string, folder: string) =>
      `Linking ${plural(count, 'selected element', 'selected elements')} of project ${corpus} to ${folder}`,
  },
} as const;

/**
 * POST /elements/selection/move/ and /elements/selection/parent/: the selected elements of the
 * project go under a folder of it (move: from all their parents; link: as one more parent).
 */
export async function scheduleSelectionLink(
  db: Db,
  user: User,
  kind: BulkLinkKind,
  input: { corpusId: string; targetId: string },
): Promise<Job> {
  const spec = LINK_KINDS[kind];
  const corpus = await bodyCorpus(db, user, input.corpusId);
  const target = await bodyFolder(db, user, corpus, spec.attr, input.targetId, spec.messages);
  const ids = await requireSelected(db, user, corpus.id);
  // A selected element above the folder (or the folder itself) would hang from itself.
  const above = await selfAndAncestorIds(db, target.id);
  if (ids.some((id) => above.has(id))) throw validationError(spec.attr, spec.cycle);
  return enqueueJob(db, {
    kind: spec.job,
    description: spec.describe(ids.length, corpus.name, target.name),
    userId: user.id,
    corpusId: corpus.id,
    payload: { corpusId: corpus.id, targetId: target.id, ids } satisfies SelectionLinkPayload,
  });
}
