/**
 * Table types shared by SQLite and PostgreSQL. Booleans are stored as 0/1 integers and
 * timestamps as ISO-8601 UTC text in both, so one set of queries serves both dialects.
 */
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

export type Flag = 0 | 1;

export interface UserTable {
  id: string;
  email: string;
  display_name: string;
  /** null: the account has no usable password (it must reset one). */
  password_hash: string | null;
  is_admin: Flag;
  /** 0: deactivated by a site admin; no login, no session, no token. */
  is_active: Generated<Flag>;
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

export interface ElementTable {
  id: string;
  corpus_id: string;
  type_id: string;
  name: string;
  image_id: string | null;
  /** JSON text of a closed ring [[x, y], …] in image coordinates; null without an image. */
  polygon: string | null;
  rotation_angle: number;
  mirrored: Flag;
  confidence: number | null;
  creator_id: string | null;
  worker_run_id: string | null;
  created: string;
  updated: string;
  /** When a child was last added, removed, moved or renamed (the children list's Last-Modified). */
  children_updated: string | null;
}

export interface ElementLinkTable {
  parent_id: string;
  child_id: string;
  position: number;
  created: string;
}

export type TextOrientation = 'horizontal-lr' | 'horizontal-rl' | 'vertical-lr' | 'vertical-rl';

export interface TranscriptionTable {
  id: string;
  element_id: string;
  text: string;
  orientation: TextOrientation;
  confidence: number | null;
  worker_run_id: string | null;
  creator_id: string | null;
  created: string;
  updated: string;
}

export interface MlClassTable {
  id: string;
  corpus_id: string;
  name: string;
}

export type ClassificationState = 'pending' | 'validated' | 'rejected';

export interface ClassificationTable {
  id: string;
  element_id: string;
  ml_class_id: string;
  state: ClassificationState;
  confidence: number | null;
  high_confidence: Flag;
  worker_run_id: string | null;
  creator_id: string | null;
  moderator_id: string | null;
  created: string;
  updated: string;
}

export type MetadataType =
  'text' | 'markdown' | 'date' | 'location' | 'reference' | 'numeric' | 'url';

export interface MetadataTable {
  id: string;
  element_id: string;
  type: MetadataType;
  name: string;
  value: string;
  /** The value as a number for numeric metadata, so comparisons are numeric in both databases. */
  numeric_value: number | null;
  worker_run_id: string | null;
  creator_id: string | null;
  created: string;
  updated: string;
}

export interface AllowedMetadataTable {
  id: string;
  corpus_id: string;
  type: MetadataType;
  name: string;
}

export type JobStatus = 'queued' | 'started' | 'processed' | 'error';

export interface JobTable {
  id: string;
  user_id: string | null;
  corpus_id: string | null;
  kind: string;
  description: string;
  status: JobStatus;
  /** 0 to 1. */
  progress: number;
  /** JSON text: what the job works on. */
  payload: string;
  /** JSON text: what it produced (counts, reports), once ended. */
  result: string | null;
  error: string | null;
  stop_requested: Flag;
  /** Which server process runs it (several may share a PostgreSQL database). */
  claimed_by: string | null;
  enqueued_at: string;
  started_at: string | null;
  ended_at: string | null;
}

export interface IdempotencyKeyTable {
  user_id: string;
  key: string;
  fingerprint: string;
  status_code: number | null;
  content_type: string | null;
  /** JSON text of the response headers replayed with the body (Location, Last-Modified…). */
  headers: string | null;
  body: string | null;
  created: string;
}

export interface WorkerTable {
  id: string;
  name: string;
  slug: string;
  type: string;
  description: string;
  repository_url: string | null;
  archived: number;
  created: string;
}

/** A kind of worker (classifier, recognizer…); workers name theirs by slug (migration 0011). */
export interface WorkerTypeTable {
  id: string;
  slug: string;
  display_name: string;
}

export type WorkerVersionState = 'created' | 'available' | 'error';
export type WorkerUsage = 'disabled' | 'supported' | 'required';

export interface WorkerVersionTable {
  id: string;
  worker_id: string;
  /** Short git hash for summaries; derived from revision_url when it ends with one. */
  revision_hash: string | null;
  version: number | null;
  /** JSON text. */
  configuration: string;
  state: string;
  created: string;
  /** Migration 0011: what Arkindex records of a published version. */
  revision_url: string | null;
  branch: string | null;
  tag: string | null;
  gpu_usage: Generated<string>;
  model_usage: Generated<string>;
  docker_image_iid: string | null;
  /** The built-in feature this version provides (file_import, pdf_export…), at most one each. */
  feature: string | null;
}

export type WorkerActivityState = 'queued' | 'started' | 'processed' | 'error';

/** What a worker run reported of one element (migration 0011). */
export interface WorkerActivityTable {
  id: string;
  worker_run_id: string;
  element_id: string;
  state: WorkerActivityState;
  created: string;
  updated: string;
}

export interface WorkerConfigurationTable {
  id: string;
  worker_id: string;
  name: string;
  /** JSON text. */
  configuration: string;
  archived: number;
}

export interface ModelTable {
  id: string;
  name: string;
  description: string;
  /** Readable by every verified user (migration 0012). */
  public: Generated<Flag>;
  archived: Generated<Flag>;
  created: string;
  /** Null only for rows inserted without it; read as `created` then. */
  updated: string | null;
}

/** A user's level on a model: guest 10, contributor 50, admin 100, as on projects. */
export interface ModelMembershipTable {
  id: string;
  model_id: string;
  user_id: string;
  level: number;
  created: string;
}

export type ModelVersionState = 'created' | 'processing' | 'available' | 'error';

export interface ModelVersionTable {
  id: string;
  model_id: string;
  tag: string | null;
  description: Generated<string>;
  /** The version this one was trained from, if any. */
  parent_id: string | null;
  /** SHA-256 of the uploaded archive. */
  hash: string | null;
  archive_hash: string | null;
  /** Bytes of the archive; bigint, which PostgreSQL returns as a string: read through Number(). */
  size: ColumnType<number | string | null, number | null | undefined, number | null>;
  state: string;
  /** JSON text. */
  configuration: string;
  created: string;
  updated: string | null;
}

export interface ModelCompatibleWorkerTable {
  model_id: string;
  worker_id: string;
  created: string;
}

export interface ProcessTable {
  id: string;
  /** Null for a person's local process (mode `local`), which belongs to no project. */
  corpus_id: string | null;
  name: string | null;
  mode: string;
  state: string;
  creator_id: string | null;
  created: string;
  started: string | null;
  finished: string | null;
  /** Migration 0014: the element filters of a workers process. */
  element_id: string | null;
  element_type: string | null;
  element_name_contains: string | null;
  load_children: Generated<LoadChildren>;
  ml_class_id: string | null;
  template_id: string | null;
  farm_id: string | null;
  chunks: Generated<number>;
  use_gpu: Generated<Flag>;
  activity_state: Generated<ActivityState>;
  updated: string | null;
  /** Migration 0025: the budget its tasks are charged to (enterprise edition). */
  budget_id: Generated<string | null>;
}

export type LoadChildren = 'none' | 'direct' | 'all';
export type ActivityState = 'disabled' | 'pending' | 'ready' | 'error';
export type TaskState =
  | 'unscheduled'
  | 'pending'
  | 'running'
  | 'completed'
  | 'failed'
  | 'error'
  | 'stopping'
  | 'stopped'
  | 'cancelled';
export type TaskKind = 'worker' | 'import';

/** The elements a process was created from (a copy of its creator's selection). */
export interface ProcessElementTable {
  process_id: string;
  element_id: string;
}

export interface FarmTable {
  id: string;
  name: string;
  /** The secret agents present to register (`Authorization: Farm <token>`). */
  token: string;
  created: string;
  /** Migration 0025: hundredths of a budget's currency per hour of task time (bigint). */
  rate: ColumnType<number | string, number | undefined, number>;
}

export interface AgentTable {
  id: string;
  farm_id: string;
  hostname: string;
  token_hash: string;
  slots: Generated<number>;
  cpu_cores: Generated<number>;
  /** bigint, which PostgreSQL returns as a string: read through Number(). */
  ram_total: ColumnType<number | string, number | undefined, number>;
  gpus: Generated<number>;
  last_ping: string;
  created: string;
}

export interface TaskTable {
  id: string;
  process_id: string;
  run: Generated<number>;
  depth: Generated<number>;
  slug: string;
  kind: Generated<TaskKind>;
  state: Generated<TaskState>;
  /** JSON array of task ids. */
  parents: Generated<string>;
  worker_run_id: string | null;
  /** JSON array of element ids (the task's chunk). */
  elements: Generated<string>;
  chunk: number | null;
  original_task_id: string | null;
  requires_gpu: Generated<Flag>;
  agent_id: string | null;
  token_hash: string | null;
  attempts: Generated<number>;
  logs: Generated<string>;
  created: string;
  updated: string;
  started: string | null;
  finished: string | null;
}

export interface TaskArtifactTable {
  id: string;
  task_id: string;
  path: string;
  size: ColumnType<number | string, number, number>;
  content_type: string;
  created: string;
  updated: string;
}

export interface WorkerRunTable {
  id: string;
  process_id: string;
  worker_version_id: string;
  model_version_id: string | null;
  configuration_id: string | null;
  /** JSON array of worker run ids. */
  parents: string;
  created: string;
}

export interface EntityTypeTable {
  id: string;
  corpus_id: string;
  name: string;
  color: string;
}

export interface TranscriptionEntityTable {
  id: string;
  transcription_id: string;
  type_id: string;
  offset: number;
  length: number;
  confidence: number | null;
  worker_run_id: string | null;
}

/** One element in one user's selection (migration 0009). */
export interface SelectionTable {
  user_id: string;
  element_id: string;
  created: string;
}

export type DatasetState = 'open' | 'building' | 'complete' | 'error';

/** A project's dataset (migration 0015); seed and populate_job_id are its last populate's. */
export interface DatasetTable {
  id: string;
  corpus_id: string;
  name: string;
  description: string;
  unique_elements: Flag;
  state: DatasetState;
  creator_id: string | null;
  seed: number | string | null;
  task_id: string | null;
  populate_job_id: string | null;
  created: string;
  updated: string;
}

export interface DatasetSetTable {
  id: string;
  dataset_id: string;
  name: string;
}

export interface DatasetElementTable {
  set_id: string;
  element_id: string;
  created: string;
}

/** A dataset set a dataset process runs on (migration 0017). */
export interface ProcessSetTable {
  id: string;
  process_id: string;
  set_id: string;
  created: string;
}

export type SearchSource =
  'element' | 'transcription' | 'metadata' | 'classification' | 'transcription_entity';

/**
 * One searchable text (migration 0019): an element's name, a transcription's text, a metadata
 * value, a classification's class name or an entity's text, with what the facets filter on.
 * Its words are in search_fts (SQLite, rowid = id) or in tsv (PostgreSQL only).
 */
export interface SearchDocumentTable {
  id: Generated<number>;
  corpus_id: string;
  source: SearchSource;
  item_id: string;
  element_id: string;
  type_id: string;
  worker_run_id: string | null;
  ml_class_id: string | null;
  metadata_name: string | null;
  entity_type_id: string | null;
  confidence: number | null;
  /** PostgreSQL only: the document's words with their positions. */
  tsv: ColumnType<string, string | undefined, string>;
}

/** SQLite only: the contentless FTS5 table of the documents' words (body = folded tokens). */
export interface SearchFtsTable {
  rowid: number;
  body: string;
}

/** An element whose documents must be rewritten, marked by triggers (migration 0019). */
export interface SearchPendingTable {
  id: Generated<number>;
  element_id: string;
}

export type ExportState = 'created' | 'running' | 'done' | 'failed';

/** A project's SQLite export (migration 0020); size is the file's length once done. */
export interface CorpusExportTable {
  id: string;
  corpus_id: string;
  user_id: string;
  state: ExportState;
  source: string;
  job_id: string | null;
  error: string | null;
  /** bigint: PostgreSQL hands it back as text. */
  size: number | string | null;
  created: string;
  updated: string;
}

/**
 * What an imported IIIF manifest said beyond its canvases (migration 0021), for the folder it
 * became: `structures` and `rights` are JSON (services/elements/importedManifests.ts).
 */
export interface ImportedManifestTable {
  element_id: string;
  source_id: string;
  version: number;
  structures: string;
  rights: string;
  created: string;
}

/** A worker's secret (migration 0023): its value only as AES-256-GCM ciphertext, base64. */
export interface SecretTable {
  id: string;
  name: string;
  content: string;
  iv: string;
  tag: string;
  created: string;
  updated: string;
}

/** A user group (migration 0024, enterprise edition). */
export interface GroupTable {
  id: string;
  name: string;
  created: string;
  updated: string;
}

/** A user's place in a group: level 10 member, 100 admin (who manages the group). */
export interface GroupMemberTable {
  id: string;
  group_id: string;
  user_id: string;
  level: number;
  created: string;
}

/** A group's membership of a project: its members hold `level` there (as `memberships`). */
export interface CorpusGroupTable {
  id: string;
  corpus_id: string;
  group_id: string;
  level: number;
  created: string;
}

/** Migration 0025: money in integer hundredths (bigint, a string from PostgreSQL). */
type Money = ColumnType<number | string, number, number>;

export interface BudgetTable {
  id: string;
  name: string;
  amount: Money;
  /** ISO 4217 code. */
  currency: string;
  creator_id: string | null;
  created: string;
  updated: string;
}

/** One finished task's cost, charged once (unique task_id). */
export interface BudgetEntryTable {
  id: string;
  budget_id: string;
  process_id: string | null;
  task_id: string;
  description: string;
  value: Money;
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
  elements: ElementTable;
  element_links: ElementLinkTable;
  transcriptions: TranscriptionTable;
  ml_classes: MlClassTable;
  classifications: ClassificationTable;
  metadata: MetadataTable;
  allowed_metadata: AllowedMetadataTable;
  jobs: JobTable;
  idempotency_keys: IdempotencyKeyTable;
  workers: WorkerTable;
  worker_versions: WorkerVersionTable;
  worker_types: WorkerTypeTable;
  worker_activities: WorkerActivityTable;
  worker_configurations: WorkerConfigurationTable;
  models: ModelTable;
  model_versions: ModelVersionTable;
  model_memberships: ModelMembershipTable;
  model_compatible_workers: ModelCompatibleWorkerTable;
  processes: ProcessTable;
  worker_runs: WorkerRunTable;
  process_elements: ProcessElementTable;
  farms: FarmTable;
  agents: AgentTable;
  tasks: TaskTable;
  task_artifacts: TaskArtifactTable;
  entity_types: EntityTypeTable;
  transcription_entities: TranscriptionEntityTable;
  selections: SelectionTable;
  datasets: DatasetTable;
  dataset_sets: DatasetSetTable;
  dataset_elements: DatasetElementTable;
  process_sets: ProcessSetTable;
  search_documents: SearchDocumentTable;
  search_fts: SearchFtsTable;
  search_pending: SearchPendingTable;
  corpus_exports: CorpusExportTable;
  imported_manifests: ImportedManifestTable;
  secrets: SecretTable;
  budgets: BudgetTable;
  budget_entries: BudgetEntryTable;
  groups: GroupTable;
  group_members: GroupMemberTable;
  corpus_groups: CorpusGroupTable;
}

export type User = Selectable<UserTable>;
export type NewUser = Insertable<UserTable>;
export type UserUpdate = Updateable<UserTable>;
export type Corpus = Selectable<CorpusTable>;
export type ElementType = Selectable<ElementTypeTable>;
export type Membership = Selectable<MembershipTable>;
export type Group = Selectable<GroupTable>;
export type GroupMember = Selectable<GroupMemberTable>;
export type CorpusGroup = Selectable<CorpusGroupTable>;
export type Image = Selectable<ImageTable>;
export type Element = Selectable<ElementTable>;
export type ElementLink = Selectable<ElementLinkTable>;
export type Transcription = Selectable<TranscriptionTable>;
export type MlClass = Selectable<MlClassTable>;
export type Classification = Selectable<ClassificationTable>;
export type Metadata = Selectable<MetadataTable>;
export type AllowedMetadata = Selectable<AllowedMetadataTable>;
export type Job = Selectable<JobTable>;
export type Model = Selectable<ModelTable>;
export type ModelVersion = Selectable<ModelVersionTable>;
export type ModelMembership = Selectable<ModelMembershipTable>;
export type Dataset = Selectable<DatasetTable>;
export type DatasetSet = Selectable<DatasetSetTable>;
export type CorpusExport = Selectable<CorpusExportTable>;
