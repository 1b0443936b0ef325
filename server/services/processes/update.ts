/**
 * UpdateProcess (PATCH /process/{id}/): the name at any time; the element filters while the
 * process has no tasks; `state: "stopping"` stops the latest run of a pending or running
 * process.
 */
import type { Db } from '../../db';
import { badRequest } from '../../errors';
import { nowIso } from '../../clock';
import { stopProcessRun } from '../tasks/transitions';
import { checkFilters, hasFilterFields, type FilterInput } from './filters';
import { refreshProcessState } from './state';
import { hasTasks, type ProcessRow } from './rights';

export const UPDATE_MESSAGES = {
  filtersAfterStart: 'The element filters cannot be changed once the process has started.',
  notRunning: 'Only a pending or running process can be stopped.',
  noProject: 'This process has no project: it has no element filters.',
} as const;

export interface ProcessUpdate extends FilterInput {
  name?: string | null | undefined;
  state?: 'stopping' | undefined;
}

export async function updateProcess(db: Db, process: ProcessRow, input: ProcessUpdate) {
  if (input.state === 'stopping' && !['pending', 'running'].includes(process.state)) {
    throw badRequest(UPDATE_MESSAGES.notRunning);
  }
  const filtersGiven = hasFilterFields(input);
  if (filtersGiven && !process.corpus_id) throw badRequest(UPDATE_MESSAGES.noProject);
  if (filtersGiven && (await hasTasks(db, process.id))) {
    throw badRequest(UPDATE_MESSAGES.filtersAfterStart);
  }
  const filters =
    filtersGiven && process.corpus_id ? await checkFilters(db, process.corpus_id, input) : {};
  await db.transaction().execute(async (trx) => {
    const name = input.name === undefined ? {} : { name: input.name?.trim() || null };
    await trx
      .updateTable('processes')
      .set({ ...filters, ...name, updated: nowIso() })
      .where('id', '=', process.id)
      .execute();
    if (input.state === 'stopping') {
      await stopProcessRun(trx, process.id);
      await refreshProcessState(trx, process.id);
    }
  });
}
