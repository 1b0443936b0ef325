/**
 * CreateProcess from a project (POST /process/corpus/): an unscheduled workers process with its
 * element filters; `selection: true` copies the caller's selected elements of the project,
 * which then are the process' sources.
 */
import type { Db } from '../../db';
import type { User } from '../../db/schema';
import { validationError } from '../../errors';
import { nowIso } from '../../clock';
import { chunks, INSERT_CHUNK } from '../elements/repository';
import { selectedIdsOfCorpus } from '../selection';
import { checkFilters, type FilterInput } from './filters';
import { insertProcess } from './templates';

export const NO_SELECTION = 'You have no selected elements in this project.';

export interface CorpusProcessInput extends FilterInput {
  corpus: string;
  name?: string | undefined;
  selection?: boolean | undefined;
}

export async function createCorpusProcess(
  db: Db,
  user: User,
  corpusId: string,
  input: CorpusProcessInput,
): Promise<string> {
  const filters = await checkFilters(db, corpusId, input);
  const selected = input.selection ? await selectedIdsOfCorpus(db, user, corpusId) : [];
  if (input.selection && selected.length === 0) {
    throw validationError('selection', NO_SELECTION);
  }
  return db.transaction().execute(async (trx) => {
    const id = await insertProcess(trx, {
      corpusId,
      creatorId: user.id,
      name: input.name?.trim() || null,
      mode: 'workers',
    });
    await trx
      .updateTable('processes')
      .set({ ...filters, updated: nowIso() })
      .where('id', '=', id)
      .execute();
    for (const part of chunks(selected, INSERT_CHUNK)) {
      await trx
        .insertInto('process_elements')
        .values(part.map((elementId) => ({ process_id: id, element_id: elementId })))
        .execute();
    }
    return id;
  });
}
