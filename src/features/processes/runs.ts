import type { Task } from '@/api/processTypes';

/** The run numbers a process' tasks belong to, oldest first. */
export function runNumbers(tasks: readonly Task[]): number[] {
  return [...new Set(tasks.map((task) => task.run))].sort((a, b) => a - b);
}

/** The run to show: the one asked for if it exists, else the latest (-1 asks for the latest). */
export function shownRun(tasks: readonly Task[], selectedRun: number): number | null {
  const runs = runNumbers(tasks);
  if (runs.length === 0) return null;
  return runs.includes(selectedRun) ? selectedRun : runs[runs.length - 1]!;
}

export interface TaskGroup {
  /** The worker run's id, or null for tasks no worker run made (an import). */
  workerRunId: string | null;
  title: string;
  tasks: Task[];
}

/** A run's tasks grouped by the worker run that made them, in the order they come. */
export function groupByWorkerRun(tasks: readonly Task[]): TaskGroup[] {
  const groups = new Map<string | null, TaskGroup>();
  for (const task of tasks) {
    const key = task.worker_run?.id ?? null;
    let group = groups.get(key);
    if (!group) {
      group = { workerRunId: key, title: task.worker_run?.summary ?? 'Tasks', tasks: [] };
      groups.set(key, group);
    }
    group.tasks.push(task);
  }
  return [...groups.values()];
}
