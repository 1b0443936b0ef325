import type { Features, ServerInfo, User } from '@/api/types';

const NO_FEATURES: Features = {
  search: false,
  selection: false,
  signup: false,
  ingest: false,
  enterprise: false,
  pdf_export: false,
  pagexml_export: false,
  docx_export: false,
  csv_export: false,
};

export function makeInfo(
  features: Partial<Features> = {},
  overrides: Partial<ServerInfo> = {},
): ServerInfo {
  return {
    version: '1.9.0',
    features: { ...NO_FEATURES, ...features },
    banner: null,
    ...overrides,
  };
}

export function makeUser(overrides: Partial<User> = {}): User {
  return {
    id: '11111111-2222-4333-8444-555555555555',
    email: 'ada@example.org',
    display_name: 'Ada Lovelace',
    is_admin: false,
    verified_email: true,
    has_usable_password: true,
    can_manage_workers: false,
    can_ingest: false,
    features: {},
    ...overrides,
  };
}

export const UUID = '3f2a7c1e-9b4d-4e8a-a1f0-2c6d8e9b0a17';
