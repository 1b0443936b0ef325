import { GROUP_LEVELS, type GroupLevel } from '@/api/groups';

export const GROUP_LEVEL_OPTIONS: { level: GroupLevel; label: string }[] = [
  { level: GROUP_LEVELS.member, label: 'Member' },
  { level: GROUP_LEVELS.admin, label: 'Admin' },
];

export function groupLevelLabel(level: number | null): string {
  return level !== null && level >= GROUP_LEVELS.admin ? 'Admin' : 'Member';
}

/** A group's role on a project, in the project members screen's words. */
export function projectRoleLabel(level: number): string {
  if (level >= 100) return 'Admin';
  return level >= 50 ? 'Contributor' : 'Guest';
}
