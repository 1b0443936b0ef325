/**
 * Rights on a process. A project's process follows the project's rights; a local process (a
 * person's own worker runs, with no project) is theirs alone, and site admins'.
 */
import type { Db } from '../../db';
import type { User } from '../../db/schema';
import { findCorpusAccess, projectLimit, type Right } from '../../permissions';

export interface ProcessOwner {
  corpus_id: string | null;
  creator_id: string | null;
}

/** The caller's rights on the process: [] when they may not even see it. */
export async function processRights(
  db: Db,
  user: User | null,
  process: ProcessOwner,
): Promise<Right[]> {
  if (process.corpus_id === null) {
    // A task token reaches its own project, never a person's local process.
    if (!user || projectLimit(user)) return [];
    return user.is_admin === 1 || user.id === process.creator_id ? ['read', 'write', 'admin'] : [];
  }
  return (await findCorpusAccess(db, user, process.corpus_id))?.rights ?? [];
}
