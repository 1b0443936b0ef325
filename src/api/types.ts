export type FeatureName =
  | 'search'
  | 'selection'
  | 'signup'
  | 'ingest'
  | 'enterprise'
  | 'pdf_export'
  | 'pagexml_export'
  | 'alto_export'
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

export interface UserMembership {
  id: string;
  level: number;
  created: string;
  user: { id: string; email: string; display_name: string };
}

/** A group given a level on a project (enterprise edition): each of its members holds it. */
export interface GroupMembership {
  id: string;
  level: number;
  created: string;
  group: { id: string; name: string };
}

/** An entry of a project's members: a user, or a group in the enterprise edition. */
export type Membership = UserMembership | GroupMembership;

export function isGroupMembership(membership: Membership): membership is GroupMembership {
  return 'group' in membership;
}

export const LEVELS = { guest: 10, contributor: 50, admin: 100 } as const;

export type Polygon = [number, number][];

export interface ImageServer {
  display_name: string;
  url: string;
  max_width: number | null;
  max_height: number | null;
}

export interface ImageInfo {
  id: string;
  path: string | null;
  width: number;
  height: number;
  /** IIIF Image API base URL (no trailing slash, no /info.json). */
  url: string;
  s3_url: string | null;
  status: 'checked' | 'unchecked' | 'error';
  server: ImageServer;
}

export interface Zone {
  id: string;
  polygon: Polygon;
  image: ImageInfo;
  /** IIIF URL of the crop around the polygon. */
  url: string;
}

export interface WorkerRunSummary {
  id: string;
  summary: string;
}

export interface MlClassRef {
  id: string;
  name: string;
}

export interface ElementClassification {
  id: string;
  ml_class: MlClassRef;
  state: 'pending' | 'validated' | 'rejected';
  confidence: number | null;
  high_confidence: boolean;
  worker_run: WorkerRunSummary | null;
}

export type MetadataType =
  'text' | 'markdown' | 'date' | 'location' | 'reference' | 'numeric' | 'url';

export interface ElementMetadataItem {
  id: string;
  type: MetadataType | string;
  name: string;
  value: string;
  dates?: { type: string; year: number; month?: number; day?: number }[];
  worker_run?: WorkerRunSummary | null;
}

export interface AllowedMetadata {
  id: string;
  type: string;
  name: string;
}

export type TextOrientation = 'horizontal-lr' | 'horizontal-rl' | 'vertical-lr' | 'vertical-rl';

/** GET /element/{id}/transcriptions/ items (api/arkindex-api.md §5). */
export interface Transcription {
  id: string;
  text: string;
  confidence: number | null;
  orientation: TextOrientation;
  worker_run: WorkerRunSummary | null;
  /** How many entities point into the text: a transcription with some cannot be edited. */
  entity_count?: number;
}

export interface EntityType {
  id: string;
  name: string;
  color: string;
}

/** GET /transcription/{id}/entities/ items (Arkindex 1.9 and later). */
export interface TranscriptionEntity {
  type: EntityType;
  offset: number;
  length: number;
  confidence: number | null;
  worker_run: WorkerRunSummary | null;
}

/** An element as lists return it (api/arkindex-api.md §3.1). */
export interface ElementListItem {
  id: string;
  type: string;
  type_id?: string;
  name: string;
  corpus: { id: string; name?: string; public?: boolean };
  thumbnail_url: string | null;
  zone: Zone | null;
  rotation_angle: number;
  mirrored: boolean;
  confidence: number | null;
  created: string;
  creator?: string | null;
  worker_run: WorkerRunSummary | null;
  has_children?: boolean | null;
  classes?: ElementClassification[];
  metadata?: ElementMetadataItem[];
}

/** GET /element/{id}/ (api/arkindex-api.md §3.2). */
export interface Element extends ElementListItem {
  rights: Right[];
  classifications: ElementClassification[];
  metadata_count?: number;
}

export interface ElementRef {
  id: string;
  type: string;
  name: string;
}

/** One parent path of an element with its previous and next siblings. */
export interface Neighbors {
  path: ElementRef[];
  ordering: number | null;
  previous: ElementRef | null;
  next: ElementRef | null;
}
