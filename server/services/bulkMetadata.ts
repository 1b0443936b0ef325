/**
 * CreateMetaDataBulk `POST /element/{id}/metadata/bulk/` (api/arkindex-api.md §6): several
 * metadata of one element in one request, by a worker run of its project or by hand. Each one
 * goes through CreateMetaData's own service (services/metadata.ts), so a value, a type and the
 * project's allowed list are checked with the same rules and words; its errors are named under
 * its place in the list (`metadata_list.1.value`). Every item is checked, and all are stored in
 * one transaction, or none.
 */
import type { Db } from '../db';
import type { Metadata, User } from '../db/schema';
import { validationErrors, type ErrorItem } from '../errors';
import { checkRight, type ElementAccess } from '../permissions';
import type { MetadataJson } from './elements/serialize';
import { itemErrors } from './bulk';
import { createMetadata, serializeMetadata, type NewMetadataInput } from './metadata';
import { requireProjectWorkerRun } from './workerRuns';

export interface BulkMetadataInput {
  worker_run_id?: string | null;
  metadata_list: Omit<NewMetadataInput, 'worker_run_id'>[];
}

export interface BulkMetadataJson {
  worker_run_id: string | null;
  metadata_list: MetadataJson[];
}

/** `found` comes from requireElementRight(…, 'write'). */
export async function createMetadataBulk(
  db: Db,
  user: User,
  found: ElementAccess,
  input: BulkMetadataInput,
): Promise<BulkMetadataJson> {
  checkRight(found.access, 'write');
  const workerRunId = input.worker_run_id
    ? await requireProjectWorkerRun(
        db,
        found.element.corpus_id,
        input.worker_run_id,
        undefined,
        user,
      )
    : null;
  const rows: Metadata[] = [];
  await db.transaction().execute(async (trx) => {
    const errors: ErrorItem[] = [];
    for (const [index, item] of input.metadata_list.entries()) {
      try {
        rows.push(await createMetadata(trx, user, found, { ...item, worker_run_id: workerRunId }));
      } catch (error) {
        errors.push(...itemErrors('metadata_list', index, error));
      }
    }
    // Thrown inside the transaction, so what the valid items stored is rolled back.
    if (errors.length) throw validationErrors(errors);
  });
  return { worker_run_id: workerRunId, metadata_list: await serializeMetadata(db, rows) };
}
