/** Background jobs of the current user, as the jobs feature will supply them. */
export interface JobsSummary {
  count: number;
  onOpen?: () => void;
}

/**
 * The navbar's jobs button. The jobs feature (a later issue) loads the jobs and opens the
 * Background jobs modal; until then nobody passes a count and this renders nothing.
 */
export function JobsCounter({ count, onOpen }: JobsSummary) {
  if (count <= 0) return null;
  return (
    <button
      type="button"
      onClick={onOpen}
      aria-label={`Background jobs: ${count}`}
      className="flex items-center gap-1.5 rounded px-2 py-1 text-sm text-brand-50 hover:bg-brand-600"
    >
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
