/**
 * What the processes group answers besides the process itself (openapi/process.ts): its
 * elements in cursor pages, its dataset sets and its worker activity counts.
 */
import { z } from 'zod';
import { dataset } from '../../openapi/dataset';
import { point } from '../../openapi/schemas';

const uuid = z.uuid();

/** A route's schema in the process tag: its operation id and its parts. */
export const processSchema = <T extends object>(operationId: string, parts: T) => ({
  schema: { operationId, tags: ['process'], ...parts },
});

export const processElement = z
  .object({
    id: uuid,
    type_id: uuid,
    type: z.string(),
    name: z.string(),
    confidence: z.number().nullable(),
    image_id: uuid.nullable().optional().describe('This and what follows with `with_image`'),
    image_width: z.number().int().nullable().optional(),
    image_height: z.number().int().nullable().optional(),
    image_url: z.string().nullable().optional(),
    polygon: z.array(point).nullable().optional(),
    rotation_angle: z.number().int().optional(),
    mirrored: z.boolean().optional(),
  })
  .meta({ id: 'ProcessElement' });

/** ListProcessElements' cursor page: `count` only with `with_count`. */
export const elementPageAnswer = z.object({
  next: z.string().nullable(),
  previous: z.string().nullable(),
  results: z.array(processElement),
  count: z.number().int().optional(),
});

export const processSet = z
  .object({ id: uuid, dataset, set_name: z.string() })
  .meta({ id: 'ProcessDatasetSet' });

export const activityCounts = z
  .object({
    queued: z.number().int(),
    started: z.number().int(),
    processed: z.number().int(),
    error: z.number().int(),
  })
  .meta({ id: 'ProcessActivityStats' });
