/**
 * The shapes of processes, tasks, worker runs, farms and agents (spec 000 §3; api part 2 §2),
 * shared by the processes list and details (api/processes.ts) and the create flow
 * (api/processConfiguration.ts).
 */
import type { ProcessMode, ProcessState } from '@/lib/processStates';

export {
  FINISHED_STATES,
  PROCESS_MODES,
  PROCESS_STATES,
  type ProcessMode,
  type ProcessState,
} from '@/lib/processStates';

export type TaskState = ProcessState;

export type LoadChildren = 'none' | 'direct' | 'all';
export type ActivityState = 'disabled' | 'pending' | 'ready' | 'error';

export interface WorkerRunSummary {
  id: string;
  summary: string;
}

export interface Task {
  id: string;
  process_id: string;
  run: number;
  depth: number;
  slug: string;
  state: TaskState;
  parents: string[];
  original_task_id: string | null;
  requires_gpu: boolean;
  shm_size: null;
  worker_run: WorkerRunSummary | null;
  agent: { id: string; hostname: string } | null;
  chunk: number | null;
  elements_count: number;
  attempts: number;
  created: string;
  updated: string;
  started: string | null;
  finished: string | null;
  /** RetrieveTask only: the tail of the log. */
  logs?: string;
}

export interface Artifact {
  id: string;
  path: string;
  size: number;
  content_type: string;
  s3_put_url: null;
  created: string;
  updated: string;
}

export interface Farm {
  id: string;
  name: string;
}

export interface ProcessListItem {
  id: string;
  name: string | null;
  mode: ProcessMode;
  corpus: string | null;
  /** The project's name, for lists that show processes of several projects. */
  corpus_name: string | null;
  state: ProcessState;
  creator: { id: string; display_name: string } | null;
  created: string;
  updated: string | null;
  started: string | null;
  finished: string | null;
  activity_state: ActivityState;
}

export interface Process extends ProcessListItem {
  element: { id: string; name: string; type: string } | null;
  element_type: string | null;
  element_name_contains: string | null;
  load_children: LoadChildren;
  ml_class_id: string | null;
  /** How many elements were copied from the creator's selection (0: filters select them). */
  selection_count: number;
  template_id: string | null;
  farm: Farm | null;
  chunks: number;
  use_gpu: boolean;
  /** Tasks of every run, oldest run first. */
  tasks: Task[];
}

/** ListProcessElements items (cursor pagination); image fields only with `with_image=true`. */
export interface ProcessElement {
  id: string;
  type_id: string;
  type: string;
  name: string;
  confidence: number | null;
  image_id?: string | null;
  image_width?: number | null;
  image_height?: number | null;
  image_url?: string | null;
  polygon?: [number, number][] | null;
  rotation_angle?: number;
  mirrored?: boolean;
}

export interface ActivityStats {
  queued: number;
  started: number;
  processed: number;
  error: number;
}

export interface Agent {
  id: string;
  hostname: string;
  farm: Farm;
  active: boolean;
  last_ping: string;
  slots: number;
  cpu_cores: number;
  ram_total: number;
  gpus: number;
  running_tasks: number;
  /** The 1-minute load average per core its last heartbeat reported; null before one did. */
  cpu_load: number | null;
  /** The memory in use its last heartbeat reported, in bytes; null before one did. */
  ram_used: number | null;
}

/** RetrieveAgent: an agent with the tasks it runs now. */
export interface AgentWithTasks extends Agent {
  running: Task[];
}
