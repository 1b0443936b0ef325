/**
 * The modes and states a process may have (Arkindex's enums, in their order): the server checks
 * filters and writes the API document with them, the app offers them in its filters. Shared by
 * both (tsconfig.shared.json), so they are listed once.
 */
export const PROCESS_MODES = [
  'files',
  'workers',
  'template',
  's3',
  'dataset',
  'export',
  'local',
] as const;

export type ProcessMode = (typeof PROCESS_MODES)[number];

export const PROCESS_STATES = [
  'unscheduled',
  'pending',
  'running',
  'completed',
  'failed',
  'error',
  'stopping',
  'stopped',
  'cancelled',
] as const;

export type ProcessState = (typeof PROCESS_STATES)[number];

/** The states in which a process, or a task, is over. */
export const FINISHED_STATES: readonly ProcessState[] = [
  'completed',
  'failed',
  'error',
  'stopped',
  'cancelled',
];

export const isFinished = (state: string): boolean =>
  (FINISHED_STATES as readonly string[]).includes(state);
