/**
 * Who may do what in a project (spec 001 §5, §6), and why not, in the spec's tooltip words.
 * Disabled actions say why, so a person knows whom to ask rather than guessing.
 */
import type { Corpus, Right, User } from '@/api/types';

export const RIGHT_MESSAGES = {
  contributor: 'You must have a contributor access to this project',
  admin: 'You must have an admin access to this project',
  verified: 'Your email address should be verified',
  // Not in the spec: folders, moves and links all need a folder type to exist.
  folderType: 'This project has no folder type',
} as const;

export interface Needs {
  right: 'write' | 'admin';
  verified?: boolean;
  folderType?: boolean;
}

export interface Access {
  rights: readonly Right[];
  verified: boolean;
  hasFolderType: boolean;
}

/** The caller's access to a project; rights come with the project as the API reads them. */
export function accessOf(
  corpus: Pick<Corpus, 'rights' | 'types'> | undefined,
  user: User | null,
  fallbackRights: readonly Right[] = [],
): Access {
  return {
    rights: corpus?.rights ?? fallbackRights,
    verified: !!user && (user.verified_email || user.is_admin),
    hasFolderType: corpus?.types.some((type) => type.folder) ?? false,
  };
}

export function grantsRight(rights: readonly Right[], right: 'write' | 'admin'): boolean {
  // An admin may write even where a server lists only the highest right.
  return rights.includes(right) || (right === 'write' && rights.includes('admin'));
}

/** Why an action is not allowed, or null when it is. Rights come first: they decide most. */
export function blockedReason(needs: Needs, access: Access): string | null {
  if (!grantsRight(access.rights, needs.right)) {
    return needs.right === 'admin' ? RIGHT_MESSAGES.admin : RIGHT_MESSAGES.contributor;
  }
  if (needs.verified && !access.verified) return RIGHT_MESSAGES.verified;
  if (needs.folderType && !access.hasFolderType) return RIGHT_MESSAGES.folderType;
  return null;
}

/** Spec 001 §5 "New folder": creating, moving and linking all need these. */
export const FOLDER_WRITE: Needs = { right: 'write', verified: true, folderType: true };
/** Spec 001 §6: deleting an element needs admin and a verified e-mail. */
export const ELEMENT_DELETE: Needs = { right: 'admin', verified: true };

/**
 * Spec 000 §6: archiving or unarchiving a worker configuration is for site admins and users who
 * may manage workers.
 */
export function canArchive(user: Pick<User, 'is_admin' | 'can_manage_workers'> | null): boolean {
  return canManageWorkers(user);
}

/** Registering workers and their versions, and making a version available: the same people. */
export function canManageWorkers(
  user: Pick<User, 'is_admin' | 'can_manage_workers'> | null,
): boolean {
  return !!user && (user.is_admin || user.can_manage_workers);
}
