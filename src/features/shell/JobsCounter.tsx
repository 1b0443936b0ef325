/** Background jobs of the current user, as the jobs feature supplies them. */
export interface JobsSummary {
  count: number;
  /** How many of them are queued or running. */
  running?: number;
  onOpen?: () => void;
}

/**
 * The navbar's jobs button, shown while the user has jobs (spec 000 §2); it opens the Background
 * jobs modal. A pulsing dot says some of them still run.
 */
export function JobsCounter({ count, running = 0, onOpen }: JobsSummary) {
  if (count <= 0) return null;
  return (
    <button
      type="button"
      onClick={onOpen}
      aria-haspopup="dialog"
      aria-label={`Background jobs: ${count}`}
      title={running > 0 ? `${running} running` : undefined}
      className="flex items-center gap-1.5 rounded px-2 py-1 text-sm text-brand-50 hover:bg-brand-600"
    >
      {running > 0 && (
        <span aria-hidden="true" className="size-2 animate-pulse rounded-full bg-emerald-300" />
      )}
      <span aria-hidden="true">Jobs</span>
      <span
        aria-hidden="true"
        className="rounded-full bg-white px-1.5 text-xs font-semibold text-brand-700"
      >
        {count}
      </span>
    </button>
  );
}
