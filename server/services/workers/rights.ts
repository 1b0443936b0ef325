/**
 * Who may do what with workers (spec 000 §6). Workers are instance-wide, not project data:
 * verified users read them, while publishing workers and versions, and archiving or renaming
 * configurations (canArchive), take the `can_manage_workers` right or a site admin.
 */
import type { FastifyRequest } from 'fastify';
import type { User } from '../../db/schema';
import { requireVerified } from '../../auth/plugin';
import { permissionDenied } from '../../errors';

export function canManageWorkers(user: User): boolean {
  return user.is_admin === 1 || user.can_manage_workers === 1;
}

/** Logged in with a verified e-mail (or a site admin): 401 or 403 otherwise. */
export function requireWorkerReader(request: FastifyRequest): User {
  return requireVerified(request);
}

export function requireWorkerManager(request: FastifyRequest): User {
  const user = requireVerified(request);
  if (!canManageWorkers(user)) {
    throw permissionDenied('You do not have permission to manage workers.');
  }
  return user;
}

/** canArchive (spec 000 §6): archive, unarchive or rename a configuration. */
export function requireCanArchive(request: FastifyRequest): User {
  const user = requireVerified(request);
  if (!canManageWorkers(user)) {
    throw permissionDenied(
      'Only site administrators and worker managers can change a configuration.',
    );
  }
  return user;
}
