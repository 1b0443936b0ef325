/**
 * What the workers group answers (services/workers/*Json): workers, their types, versions,
 * configurations and a version's configuration fields, each named once in the document.
 */
import { z } from 'zod';
import { nullableEnum } from '../../openapi/schemas';
import { FEATURES, USAGES, VERSION_STATES } from '../../services/workers/versions';

const uuid = z.uuid();

export const worker = z
  .object({
    id: uuid,
    name: z.string(),
    slug: z.string(),
    type: z.string().describe("The slug of the worker's type"),
    description: z.string(),
    repository_url: z.string().nullable(),
    archived: z.boolean(),
  })
  .meta({ id: 'Worker' });

export const workerType = z
  .object({ id: uuid, slug: z.string(), display_name: z.string() })
  .meta({ id: 'WorkerType' });

export const workerVersion = z
  .object({
    id: uuid,
    worker: z.object({
      id: uuid,
      name: z.string(),
      slug: z.string(),
      type: z.string(),
      repository_url: z.string().nullable(),
    }),
    version: z.number().int().nullable().describe('Set for versions without a revision_url'),
    revision_url: z.string().nullable(),
    branch: z.string().nullable(),
    tag: z.string().nullable(),
    state: z.enum(VERSION_STATES),
    gpu_usage: z.enum(USAGES),
    model_usage: z.enum(USAGES),
    docker_image_iid: z.string().nullable(),
    feature: nullableEnum(FEATURES),
    created: z.string(),
    configuration: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'WorkerVersion' });

export const workerConfiguration = z
  .object({
    id: uuid,
    name: z.string(),
    configuration: z.record(z.string(), z.unknown()),
    archived: z.boolean(),
  })
  .meta({ id: 'WorkerConfiguration' });

/** One field of a version's user_configuration, groups followed by their children. */
export const workerVersionField = z
  .object({
    id: uuid,
    parent_id: uuid.nullable(),
    key: z.string(),
    type: z.string(),
    title: z.string(),
    required: z.boolean(),
    default: z.unknown(),
    choices: z.array(z.unknown()).nullable(),
    subtype: z.string().nullable(),
    multiline: z.boolean(),
    help_text: z.string(),
    children: z.array(uuid),
  })
  .meta({ id: 'WorkerVersionField' });
