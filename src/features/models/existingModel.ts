import { ApiError } from '@/api/errors';

/**
 * The model a name clash points to: the API answers a name taken by a model the caller reads
 * with a 400 naming the name field and the existing model's `id` at the top of the body.
 */
export function existingModelId(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.status !== 400) return null;
  const body = error.body as { id?: unknown } | null;
  const id = Array.isArray(body?.id) ? (body.id as unknown[])[0] : body?.id;
  return typeof id === 'string' ? id : null;
}
