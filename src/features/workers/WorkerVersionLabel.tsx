/** How a worker version is named: its number, or its Git revision linked to the repository. */
import type { WorkerVersion, WorkerVersionState } from '@/api/workers';
import { ui } from '@/components/styles';

export function WorkerVersionName({ version }: { version: WorkerVersion }) {
  if (version.revision_url) {
    const revision = version.revision_url.split('/').pop() || version.revision_url;
    return (
      <a
        href={version.revision_url}
        target="_blank"
        rel="noopener noreferrer"
        className={`${ui.link} font-mono`}
      >
        {revision.slice(0, 12)}
      </a>
    );
  }
  return <>{version.version !== null ? `Version ${version.version}` : '—'}</>;
}

const STATE_STYLES: Record<WorkerVersionState, string> = {
  created: 'bg-slate-100 text-slate-700',
  available: 'bg-emerald-100 text-emerald-800',
  error: 'bg-red-100 text-red-800',
};

export function WorkerVersionStateBadge({ state }: { state: WorkerVersionState }) {
  return (
    <span
      className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ${STATE_STYLES[state] ?? STATE_STYLES.created}`}
    >
      {state}
    </span>
  );
}

/** Tag and branch, the way a version's list shows them. */
export function tagAndBranch(version: Pick<WorkerVersion, 'tag' | 'branch'>): string {
  return [version.tag, version.branch].filter(Boolean).join(' / ') || '—';
}
