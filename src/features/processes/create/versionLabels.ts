import type { ProcessWorkerRun } from '@/api/processConfiguration';
import type { WorkerVersion } from '@/api/workers';

/** A version as a picker lists it: its tag, else its revision's start, else its number. */
export function versionLabel(
  version: Pick<WorkerVersion, 'tag' | 'revision_url' | 'version'>,
): string {
  const revision = version.revision_url?.split('/').pop()?.slice(0, 12);
  const name = revision ?? (version.version !== null ? `Version ${version.version}` : '—');
  return version.tag ? `${version.tag} (${name})` : name;
}

/** The version a run uses, as its card names it. */
export function runVersionLabel(run: ProcessWorkerRun): string {
  const version = run.worker_version;
  if (version.revision) return version.revision.hash.slice(0, 12);
  return version.version !== null ? `Version ${version.version}` : version.id.slice(0, 8);
}
