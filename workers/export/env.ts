/**
 * The environment a task gives the export worker (agent/run.ts sets it). Run by hand,
 * `ARKINDEX_API_TOKEN` stands for the task token and authenticates as its user (`Token`), the
 * project and process come from the worker run, and the files land in a temporary folder.
 */
import os from 'node:os';
import path from 'node:path';

export interface ExportEnv {
  apiUrl: string;
  authorization: string;
  workerRunId: string;
  /** Null when run by hand: read from the worker run. */
  corpusId: string | null;
  elementsFile: string;
  /** The task's scratch folder: the SQLite export is downloaded here. */
  dataDir: string;
  /** Files left here are the task's artifacts, uploaded by the agent. */
  artifactsDir: string;
}

export class EnvError extends Error {}

export function readEnv(env: NodeJS.ProcessEnv = process.env): ExportEnv {
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
  const dataDir = env.PONOS_DATA?.trim() || path.join(os.tmpdir(), `folia-export-${process.pid}`);
  return {
    apiUrl: apiUrl.endsWith('/') ? apiUrl : `${apiUrl}/`,
    authorization: taskToken ? `Ponos ${taskToken}` : `Token ${apiToken}`,
    workerRunId: required('ARKINDEX_WORKER_RUN_ID'),
    corpusId: env.ARKINDEX_CORPUS_ID?.trim() || null,
    elementsFile: required('TASK_ELEMENTS'),
    dataDir,
    artifactsDir: path.join(dataDir, 'artifacts'),
  };
}
