/** The API's objects as the screen tests need them, with the defaults every suite shares. */
import type { Corpus, ElementListItem, Features, ServerInfo, User } from '@/api/types';

/**
 * Fresh UUID-shaped ids, readable in failure output. Each suite counts on its own, so the ids
 * (and the names made from them) do not depend on which other suites ran.
 */
export function idSequence(variant: string): () => string {
  let counter = 0;
  return () => {
    counter += 1;
    return `00000000-0000-4000-${variant}-${String(counter).padStart(12, '0')}`;
  };
}

const NO_FEATURES: Features = {
  search: false,
  selection: false,
  signup: false,
  ingest: false,
  enterprise: false,
  pdf_export: false,
  pagexml_export: false,
  docx_export: false,
  alto_export: false,
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

/** A verified account with a password and no special rights. */
export function userWith(id: string, overrides: Partial<User> = {}): User {
  return {
    id,
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

/** A project with no description and no top-level type, created on 1 May 2024. */
export function corpusWith(
  fields: Pick<Corpus, 'id' | 'name' | 'public' | 'types' | 'rights'> & Partial<Corpus>,
): Corpus {
  return {
    description: '',
    indexable: false,
    created: '2024-05-01T10:00:00Z',
    top_level_type: null,
    ...fields,
  };
}

/** An element with no image, neither rotated nor mirrored, made by no worker, on 1 May 2024. */
export function elementWith<T extends Pick<ElementListItem, 'id' | 'type' | 'name' | 'corpus'>>(
  fields: T,
) {
  return {
    thumbnail_url: null,
    zone: null,
    rotation_angle: 0,
    mirrored: false,
    confidence: null,
    created: '2024-05-01T10:00:00Z',
    worker_run: null,
    ...fields,
  };
}
