/**
 * Spec 000 §8: every failure shows an error notification, except a 403 on the worker list, the
 * worker types or the configurations, which is rethrown: the screen shows it in place of the
 * list instead (the user lacks a right, which no retry or notification fixes).
 */
import { ApiError } from '@/api/errors';
import { useErrorNotification } from '@/components/notifications/useErrorNotification';

export function isForbidden(error: unknown): boolean {
  return error instanceof ApiError && error.status === 403;
}

/** Notifies a list's error unless it is a 403, which the list shows itself. */
export function useListErrorNotification(error: unknown): void {
  useErrorNotification(isForbidden(error) ? null : error);
}
