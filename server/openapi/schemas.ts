/**
 * The pieces route schemas share in the OpenAPI document: the pagination envelope, the
 * structured error body, path parameters, and the objects several call groups answer
 * (elements, projects, transcriptions, classifications, users). Each has an `id` so the document
 * names it once under components/schemas. These are descriptions of what the server sends,
 * not validators: handlers keep parsing with the zod objects their routes declare.
 */
import { z } from 'zod';
import { ORIENTATIONS } from '../services/transcriptions';

const uuid = z.uuid();

/** DRF's page-number envelope (server/pagination.ts) around `item`. */
export function paginated<T extends z.ZodType>(item: T) {
  return z.object({
    count: z.number().int(),
    number: z.number().int(),
    next: z.string().nullable(),
    previous: z.string().nullable(),
    results: z.array(item),
  });
}

/** The `page` and `page_size` query parameters of every paginated list. */
export const pageQuery = z.object({
  page: z.union([z.number().int().min(1), z.literal('last')]).optional(),
  page_size: z.number().int().min(1).max(1000).optional(),
});

export const idParams = z.object({ id: uuid });

/**
 * One of `values` or null. OpenAPI 3.0 wants null listed in the enum itself: `nullable` alone
 * does not let a value outside the enum through.
 */
export function nullableEnum<const T extends readonly [string, ...string[]]>(values: T) {
  return z
    .enum(values)
    .nullable()
    .meta({ enum: [...values, null] });
}

/** Query-string booleans: documented as booleans; the server reads true/false/1/0/yes/no. */
export const queryFlag = z.boolean().optional();

export const errorItem = z
  .object({ code: z.string(), detail: z.string(), attr: z.string().nullable() })
  .meta({ id: 'ErrorItem' });

/** Every refusal: drf-standardized-errors' `{type, errors}` (server/errors.ts). */
export const errorBody = z
  .object({
    type: z.enum(['validation_error', 'client_error', 'server_error']),
    errors: z.array(errorItem),
    existing_id: uuid.optional(),
    current: z.unknown().optional(),
  })
  .meta({ id: 'Error', description: 'A refusal' });

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 412 | 429;

/** Response schemas for the refusals a route may answer, all with the error body. */
export function errors(...statuses: ErrorStatus[]) {
  return Object.fromEntries(statuses.map((status) => [status, errorBody])) as Record<
    ErrorStatus,
    typeof errorBody
  >;
}

/** An answer without a body (204, 304). */
export const noContent = z.null().describe('No content');

/**
 * An answer without a body at a status that usually has one (a 202 sent empty): the document
 * lists it without content (plugin.ts withoutBodies).
 */
export const withoutBody = (description: string) =>
  z.null().meta({ description, 'x-no-body': true });

/** 202 for a deletion scheduled as a background job, as Arkindex answers. */
export const scheduled = z.object({}).describe('Deletion scheduled');

export const workerRunSummary = z
  .object({ id: uuid, summary: z.string() })
  .nullable()
  .meta({ id: 'WorkerRunSummary' });

export const right = z.enum(['read', 'write', 'admin']);

export const corpusType = z
  .object({
    id: uuid,
    slug: z.string(),
    display_name: z.string(),
    folder: z.boolean(),
    color: z.string(),
  })
  .meta({ id: 'CorpusElementType' });

export const elementType = corpusType.extend({ corpus: uuid }).meta({ id: 'ElementType' });

export const corpus = z
  .object({
    id: uuid,
    name: z.string(),
    description: z.string(),
    public: z.boolean(),
    indexable: z.boolean(),
    created: z.string(),
    types: z.array(corpusType),
    rights: z.array(right),
    top_level_type: z.string().nullable(),
    authorized_users: z.number().int(),
  })
  .meta({ id: 'Corpus' });

export const image = z
  .object({
    id: uuid,
    path: z.string(),
    width: z.number().int(),
    height: z.number().int(),
    url: z.string(),
    s3_url: z.string().nullable(),
    status: z.enum(['checked', 'unchecked', 'error']),
    server: z.object({
      display_name: z.string(),
      url: z.string(),
      max_width: z.number().int().nullable(),
      max_height: z.number().int().nullable(),
    }),
  })
  .meta({ id: 'Image' });

export const point = z.array(z.number()).min(2).max(2);

export const zone = z
  .object({ id: uuid, polygon: z.array(point), image, url: z.string() })
  .nullable()
  .meta({ id: 'Zone' });

export const classification = z
  .object({
    id: uuid,
    ml_class: z.object({ id: uuid, name: z.string() }),
    state: z.enum(['pending', 'validated', 'rejected']),
    confidence: z.number().nullable(),
    high_confidence: z.boolean(),
    worker_run: workerRunSummary,
  })
  .meta({ id: 'Classification' });

export const elementMetadata = z
  .object({
    id: uuid,
    type: z.string(),
    name: z.string(),
    value: z.string(),
    dates: z.array(z.unknown()),
    worker_run: workerRunSummary,
  })
  .meta({ id: 'ElementMetaData' });

const elementFields = {
  id: uuid,
  type: z.string().describe('The slug of the element type'),
  type_id: uuid,
  name: z.string(),
  thumbnail_url: z.string().nullable(),
  zone: zone,
  rotation_angle: z.number().int(),
  mirrored: z.boolean(),
  confidence: z.number().nullable(),
  created: z.string(),
  creator: z.string().nullable(),
  worker_run: workerRunSummary,
};

/** An element as lists show it; `classes`, `metadata` and `corpus` fields follow `with_*`. */
export const elementListItem = z
  .object({
    ...elementFields,
    corpus: z.object({ id: uuid, name: z.string().optional(), public: z.boolean().optional() }),
    has_children: z.boolean().nullable(),
    classes: z.array(classification).optional(),
    metadata: z.array(elementMetadata).optional(),
  })
  .meta({ id: 'ElementListItem' });

/** RetrieveElement: one element with its classifications and the caller's rights. */
export const element = z
  .object({
    ...elementFields,
    corpus: z.object({ id: uuid, name: z.string(), public: z.boolean() }),
    has_children: z.boolean(),
    rights: z.array(right),
    classifications: z.array(classification),
    metadata_count: z.number().int(),
  })
  .meta({ id: 'Element' });

export const transcription = z
  .object({
    id: uuid,
    text: z.string(),
    confidence: z.number().nullable(),
    orientation: z.enum(ORIENTATIONS),
    worker_run: workerRunSummary,
    element: z.object({ id: uuid, name: z.string(), type: z.string() }),
    entity_count: z.number().int(),
  })
  .meta({ id: 'Transcription' });

export const mlClass = z.object({ id: uuid, name: z.string() }).meta({ id: 'MLClass' });

export const user = z
  .object({
    id: uuid,
    email: z.string(),
    display_name: z.string(),
    is_admin: z.boolean(),
    verified_email: z.boolean(),
    has_usable_password: z.boolean(),
    can_manage_workers: z.boolean(),
    can_ingest: z.boolean(),
    features: z.record(z.string(), z.boolean()),
    auth_token: z.string().optional().describe('The API token: `Authorization: Token <key>`'),
    created: z.string(),
  })
  .meta({ id: 'User' });

export const emptyObject = z.object({});

/**
 * A folder's IIIF Presentation 2.1 manifest (services/elements/manifest.ts): what viewers
 * read first is named, the canvases and ranges are as the Presentation API defines them.
 */
export const iiifManifest = z
  .looseObject({
    '@context': z.literal('http://iiif.io/api/presentation/2/context.json'),
    '@id': z.string(),
    '@type': z.literal('sc:Manifest'),
    label: z.string(),
    description: z.string().optional(),
    sequences: z
      .array(
        z.looseObject({
          '@id': z.string(),
          '@type': z.literal('sc:Sequence'),
          canvases: z.array(
            z.looseObject({
              '@id': z.string(),
              '@type': z.literal('sc:Canvas'),
              label: z.string(),
              width: z.number().int(),
              height: z.number().int(),
              images: z.array(z.looseObject({ '@type': z.literal('oa:Annotation') })),
            }),
          ),
        }),
      )
      .length(1),
    structures: z
      .array(
        z.looseObject({ '@id': z.string(), '@type': z.literal('sc:Range'), label: z.string() }),
      )
      .optional(),
  })
  .meta({ id: 'IIIFManifest' });
