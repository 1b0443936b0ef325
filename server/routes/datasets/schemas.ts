/**
 * What the datasets group answers besides the dataset itself (openapi/dataset.ts): its elements
 * in cursor pages, an element's sets, an added element and a started populate.
 */
import { z } from 'zod';
import { dataset } from '../../openapi/dataset';
import { jobDetail } from '../../openapi/job';
import { elementListItem } from '../../openapi/schemas';

/** A route's schema in the datasets tag: its operation id and its parts. */
export const datasetSchema = <T extends object>(operationId: string, parts: T) => ({
  schema: { operationId, tags: ['datasets'], ...parts },
});

export const datasetElement = z
  .object({ set: z.string(), element: elementListItem })
  .meta({ id: 'DatasetElement' });

/** ListDatasetElements' cursor page: `count` only with `with_count`. */
export const elementPageAnswer = z.object({
  next: z.string().nullable(),
  previous: z.string().nullable(),
  results: z.array(datasetElement),
  count: z.number().int().optional(),
});

export const addedElement = z.object({ element_id: z.uuid(), set: z.string() });

export const elementSet = z
  .object({
    dataset,
    set: z.string(),
    previous: z.uuid().nullable().describe("With `with_neighbors`: the set's element before"),
    next: z.uuid().nullable(),
  })
  .meta({ id: 'ElementDatasetSet' });

export const populateStarted = z.object({ dataset, job: jobDetail });
