export type FeatureName =
  | 'search'
  | 'selection'
  | 'signup'
  | 'ingest'
  | 'enterprise'
  | 'pdf_export'
  | 'pagexml_export'
  | 'docx_export'
  | 'csv_export';

export type Features = Record<FeatureName, boolean>;

export interface Banner {
  style: 'info' | 'warning' | 'error' | 'success';
  message: string;
}

export interface ServerInfo {
  version: string;
  features: Features;
  banner: Banner | null;
}

export interface User {
  id: string;
  email: string;
  display_name: string;
  is_admin: boolean;
  verified_email: boolean;
  has_usable_password: boolean;
  can_manage_workers: boolean;
  can_ingest: boolean;
  features: Partial<Features>;
  auth_token?: string;
  created?: string;
}

export type Right = 'read' | 'write' | 'admin';

export interface ElementType {
  id: string;
  slug: string;
  display_name: string;
  folder: boolean;
  color: string;
  corpus?: string;
}

export interface Corpus {
  id: string;
  name: string;
  description: string;
  public: boolean;
  indexable: boolean;
  created: string;
  types: ElementType[];
  rights: Right[];
  top_level_type: string | null;
  authorized_users?: number;
}

export interface Membership {
  id: string;
  level: number;
  created: string;
  user: { id: string; email: string; display_name: string };
}

export const LEVELS = { guest: 10, contributor: 50, admin: 100 } as const;
