/**
 * CorpusIndex (POST /corpus/{id}/index/): a project's admins rebuild its search documents in a
 * background job. The index follows every write without it (the triggers and the follower);
 * the job is there to repair an index, or to rebuild it at once after a change of the indexer.
 */
import type { Db } from '../../db';
import type { Corpus, User } from '../../db/schema';
import { validationError } from '../../errors';
import { enqueueJob } from '../../jobs/queue';
import { jobDetailJson, type JobDetailJson } from '../../jobs/service';

export const REINDEX_JOB = 'search.reindex';

export const REINDEX_MESSAGES = {
  notIndexable: 'This project is not indexable.',
  description: (name: string) => `Reindexing project ${name}`,
} as const;

export interface ReindexPayload {
  corpusId: string;
}

export interface ReindexResult {
  /** Elements whose documents were rewritten. */
  elements: number;
  /** Documents written. */
  documents: number;
  /** Documents of elements deleted since they were indexed, removed. */
  removed: number;
}

/** Refuses a project that is not indexable, then queues the job. */
export async function startReindex(db: Db, user: User, corpus: Corpus): Promise<JobDetailJson> {
  if (corpus.indexable !== 1) throw validationError('corpus', REINDEX_MESSAGES.notIndexable);
  const job = await enqueueJob(db, {
    kind: REINDEX_JOB,
    description: REINDEX_MESSAGES.description(corpus.name),
    userId: user.id,
    corpusId: corpus.id,
    payload: { corpusId: corpus.id } satisfies ReindexPayload,
  });
  return jobDetailJson(job);
}
