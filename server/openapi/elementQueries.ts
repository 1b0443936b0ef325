/**
 * The query parameters of the element lists (services/elements/filters.ts, listOptions.ts),
 * declared for the OpenAPI document: clients built from it (arkindex-client) refuse to send a
 * parameter the document does not name. The server reads them itself, with DRF's words.
 */
import { z } from 'zod';
import { COMPARISONS, METADATA_OPERATORS } from '../services/elements/filters';
import { pageQuery, queryFlag } from './schemas';

const workerFilter = z
  .string()
  .optional()
  .describe('A worker run id, or `false` for manual results only');
const confidence = z.number().min(0).max(1).optional();
const operator = z.enum(COMPARISONS).optional();

/** Filters every element list of a project takes. */
const filters = {
  type: z.string().optional().describe('An element type slug'),
  name: z.string().optional().describe('Part of the name, whatever the case'),
  folder: queryFlag,
  worker_run: workerFilter,
  worker_version: z.string().optional().describe('Deprecated: use worker_run'),
  creator_email: z.string().optional(),
  confidence,
  confidence_operator: operator,
  rotation_angle: z.number().int().min(0).max(359).optional(),
  mirrored: queryFlag,
  metadata_name: z.string().optional(),
  metadata_value: z.string().optional(),
  metadata_operator: z.enum(METADATA_OPERATORS).optional(),
  class_id: z.uuid().optional(),
  classification_confidence: confidence,
  classification_confidence_operator: operator,
  classification_high_confidence: queryFlag,
  transcription_worker_run: workerFilter,
  transcription_worker_version: z.string().optional().describe('Deprecated'),
  transcription_confidence: confidence,
  transcription_confidence_operator: operator,
};

/** What a list shows: order and the with_* flags (listOptions.ts), and next links' cursor. */
const options = {
  cursor: z
    .string()
    .optional()
    .describe(
      'Set by the server in `next` links: the page then starts after the last element of the ' +
        'page before, as fast deep in the list as at its start (an unfitting cursor is ignored)',
    ),
  order_direction: z.enum(['asc', 'desc']).optional(),
  with_classes: queryFlag,
  with_metadata: queryFlag,
  with_has_children: queryFlag,
  with_corpus: queryFlag,
  with_zone: queryFlag.describe('Defaults to true'),
};

const order = z.enum(['name', 'created', 'random']).optional();

/** ListElements: a project's elements. */
export const corpusElementsQuery = pageQuery.extend({
  ...filters,
  ...options,
  order,
  top_level: queryFlag,
});

/** ListElementChildren and ListElementParents. */
export const hierarchyQuery = pageQuery.extend({
  ...filters,
  ...options,
  order: z.enum(['name', 'created', 'random', 'position']).optional(),
  recursive: queryFlag,
});

export const parentsQuery = hierarchyQuery.extend({ order });

/** ListImageElements: elements on an image, in every project the caller can read. */
export const imageElementsQuery = pageQuery.extend({ ...options, order });

/** Deletions of many elements: the filters, and whether their children go too. */
export const deletionQuery = z.object({
  ...filters,
  delete_children: queryFlag.describe('Defaults to true'),
});
