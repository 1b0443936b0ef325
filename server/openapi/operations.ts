/**
 * What the document adds to the schemas routes declare: operation ids and tags for routes whose
 * files do not declare them themselves (the element children routes), by method and Fastify
 * URL pattern, and the error body
 * as the `default` answer of every route that declares its answers: any refusal not listed
 * (413, 415, 500…) has that shape too.
 */
import { errorBody } from './schemas';

const FALLBACK: Record<string, { operationId: string; tags: string[] }> = {
  'POST /api/v1/element/:id/children/bulk/': { operationId: 'CreateElements', tags: ['elements'] },
  'POST /api/v1/elements/:id/children/': {
    operationId: 'CreateElementChildren',
    tags: ['elements'],
  },
};

/** The route's schema, completed with its operation id, tags and default answer. */
export function operationFor(
  method: string,
  url: string,
  schema: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const completed: Record<string, unknown> = {
    ...(schema?.operationId ? {} : FALLBACK[`${method} ${url}`]),
    ...schema,
  };
  const response = completed.response as Record<string, unknown> | undefined;
  if (response && !response.default) completed.response = { ...response, default: errorBody };
  return completed;
}
