/**
 * Table types shared by SQLite and PostgreSQL. Booleans are stored as 0/1 integers and
 * timestamps as ISO-8601 UTC text in both, so one set of queries serves both dialects.
 */
import type { Insertable, Selectable, Updateable } from 'kysely';

export type Flag = 0 | 1;

export interface UserTable {
  id: string;
  email: string;
  display_name: string;
  /** null: the account has no usable password (it must reset one). */
  password_hash: string | null;
  is_admin: Flag;
  verified_email: Flag;
  can_manage_workers: Flag;
  can_ingest: Flag;
  auth_token: string;
  last_login: string | null;
  created: string;
  updated: string;
}

export interface SessionTable {
  /** SHA-256 of the cookie value, so a leaked table does not leak sessions. */
  id: string;
  user_id: string;
  created: string;
  expires: string;
}

export interface LoginFailureTable {
  id: string;
  /** Lower-cased e-mail tried, or "ip:<address>". */
  key: string;
  at: string;
}

export interface SettingTable {
  name: string;
  value: string;
}

export interface CorpusTable {
  id: string;
  name: string;
  description: string;
  public: Flag;
  indexable: Flag;
  top_level_type: string | null;
  created: string;
  updated: string;
}

export interface ElementTypeTable {
  id: string;
  corpus_id: string;
  slug: string;
  display_name: string;
  folder: Flag;
  color: string;
  indexable: Flag;
}

export interface MembershipTable {
  id: string;
  corpus_id: string;
  user_id: string;
  level: number;
  created: string;
}

export type ImageStatus = 'checked' | 'unchecked' | 'error';

export interface ImageTable {
  id: string;
  /** Access follows this project's rights; null: a public image. */
  corpus_id: string | null;
  /** Local images: the pyramidal TIFF relative to <dataDir>/images. */
  path: string | null;
  /** Images on an external IIIF server: their IIIF base URL. */
  url: string | null;
  width: number;
  height: number;
  status: ImageStatus;
  mime: string | null;
  /** SHA-256 of the original file, to find duplicates. */
  hash: string | null;
  created: string;
}

export interface Database {
  users: UserTable;
  sessions: SessionTable;
  login_failures: LoginFailureTable;
  settings: SettingTable;
  corpora: CorpusTable;
  element_types: ElementTypeTable;
  memberships: MembershipTable;
  images: ImageTable;
}

export type User = Selectable<UserTable>;
export type NewUser = Insertable<UserTable>;
export type UserUpdate = Updateable<UserTable>;
export type Corpus = Selectable<CorpusTable>;
export type ElementType = Selectable<ElementTypeTable>;
export type Membership = Selectable<MembershipTable>;
export type Image = Selectable<ImageTable>;
