import { describe, expect, it } from 'vitest';
import {
  ELEMENT_DELETE,
  FOLDER_WRITE,
  RIGHT_MESSAGES,
  blockedReason,
  canArchive,
} from '@/lib/rights';

const access = (overrides: Partial<Parameters<typeof blockedReason>[1]> = {}) => ({
  rights: ['read', 'write'] as const,
  verified: true,
  hasFolderType: true,
  ...overrides,
});

describe('blockedReason', () => {
  it('allows what the rights, the e-mail and the folder types permit', () => {
    expect(blockedReason(FOLDER_WRITE, access())).toBeNull();
    expect(blockedReason(ELEMENT_DELETE, access({ rights: ['read', 'write', 'admin'] }))).toBe(
      null,
    );
    // A server that lists only the highest right still lets an admin write.
    expect(blockedReason({ right: 'write' }, access({ rights: ['admin'] }))).toBeNull();
  });

  it('names the missing right first, then the e-mail, then the folder type', () => {
    const nothing = access({ rights: ['read'], verified: false, hasFolderType: false });
    expect(blockedReason(FOLDER_WRITE, nothing)).toBe(RIGHT_MESSAGES.contributor);
    expect(blockedReason(ELEMENT_DELETE, nothing)).toBe(RIGHT_MESSAGES.admin);
    expect(blockedReason(FOLDER_WRITE, access({ verified: false, hasFolderType: false }))).toBe(
      'Your email address should be verified',
    );
    expect(blockedReason(FOLDER_WRITE, access({ hasFolderType: false }))).toBe(
      'This project has no folder type',
    );
    expect(blockedReason({ right: 'write' }, access({ verified: false }))).toBeNull();
  });
});

describe('canArchive', () => {
  it('is for site admins and users who may manage workers', () => {
    expect(canArchive({ is_admin: true, can_manage_workers: false })).toBe(true);
    expect(canArchive({ is_admin: false, can_manage_workers: true })).toBe(true);
    expect(canArchive({ is_admin: false, can_manage_workers: false })).toBe(false);
    expect(canArchive(null)).toBe(false);
  });
});
