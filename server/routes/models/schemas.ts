/**
 * What the models group answers (services/models/*Json): models and their versions, each named
 * once in the document; compatible workers are the workers group's Worker.
 */
import { z } from 'zod';
import { right } from '../../openapi/schemas';

const uuid = z.uuid();

/** A route's schema in the training tag: its operation id and its parts. */
export const modelSchema = <T extends object>(operationId: string, parts: T) => ({
  schema: { operationId, tags: ['training'], ...parts },
});

export const model = z
  .object({
    id: uuid,
    name: z.string(),
    description: z.string(),
    created: z.string(),
    updated: z.string(),
    archived: z.boolean(),
    public: z.boolean(),
    rights: z.array(right),
  })
  .meta({ id: 'Model' });

export const modelVersion = z
  .object({
    id: uuid,
    model_id: uuid,
    model: z.object({ id: uuid, name: z.string() }),
    state: z.enum(['created', 'processing', 'available', 'error']),
    parent: uuid.nullable(),
    tag: z.string().nullable(),
    description: z.string(),
    configuration: z.unknown(),
    size: z.number().int().nullable().describe("The archive's size in bytes"),
    hash: z.string().nullable(),
    archive_hash: z.string().nullable(),
    created: z.string(),
    updated: z.string(),
    s3_url: z.string().nullable().describe('Where an available version is downloaded'),
    s3_put_url: z.string().nullable().describe('Where the archive is uploaded (PUT)'),
  })
  .meta({ id: 'ModelVersion' });

export const compatibleWorkerPair = z.object({ model_id: uuid, worker_id: uuid });
