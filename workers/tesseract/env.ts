/**
 * The environment a task gives its program (the agent sets it; see the contract's "The program
 * a task runs"). Run by hand, `ARKINDEX_API_TOKEN` stands for the task token and authenticates
 * as its user (`Token`), and the process comes from the worker run.
 */
import os from 'node:os';
import path from 'node:path';

export interface WorkerEnv {
  apiUrl: string;
  authorization: string;
  workerRunId: string;
  /** Null when run by hand: read from the worker run. */
  processId: string | null;
  elementsFile: string;
  dataDir: string;
  /** True when PONOS_DATA was not given: the folder is the worker's to remove. */
  ownDataDir: boolean;
}

export class EnvError extends Error {}

export function readEnv(env: NodeJS.ProcessEnv = process.env): WorkerEnv {
  const required = (name: string): string => {
    const value = env[name]?.trim();
    if (!value) throw new EnvError(`${name} is not set: run this worker as a task of a process`);
    return value;
  };
  const apiUrl = required('ARKINDEX_API_URL');
  const taskToken = env.ARKINDEX_TASK_TOKEN?.trim();
  const apiToken = env.ARKINDEX_API_TOKEN?.trim();
  if (!taskToken && !apiToken) {
    throw new EnvError('ARKINDEX_TASK_TOKEN (or ARKINDEX_API_TOKEN, run by hand) is not set');
  }
  return {
    apiUrl: apiUrl.endsWith('/') ? apiUrl : `${apiUrl}/`,
    authorization: taskToken ? `Ponos ${taskToken}` : `Token ${apiToken}`,
    workerRunId: required('ARKINDEX_WORKER_RUN_ID'),
    processId: env.ARKINDEX_PROCESS_ID?.trim() || null,
    elementsFile: required('TASK_ELEMENTS'),
    dataDir: env.PONOS_DATA?.trim() || path.join(os.tmpdir(), `folia-tesseract-${process.pid}`),
    ownDataDir: !env.PONOS_DATA?.trim(),
  };
}
