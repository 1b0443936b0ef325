import { Link } from '@tanstack/react-router';

/** The selection's size, as the selection feature will supply it. */
export interface SelectionSummary {
  count: number;
  loading: boolean;
}

/**
 * The navbar's link to the selected elements, with a loader while the selection loads. Its
 * name is its visible text ("Selection 7", "Selection loading"), so someone who says or reads
 * what they see on it reaches it (WCAG 2.5.3).
 */
export function SelectionCounter({ count, loading }: SelectionSummary) {
  return (
    <Link
      to="/elements/selected"
      className="flex items-center gap-1.5 rounded px-2 py-1 text-sm text-brand-50 hover:bg-brand-600"
    >
      Selection{' '}
      {loading ? (
        <>
          <span
            aria-hidden="true"
            className="inline-block size-3.5 animate-spin rounded-full border-2 border-brand-100 border-t-transparent"
          />
          <span className="sr-only">loading</span>
        </>
      ) : (
        <span className="rounded-full bg-white px-1.5 text-xs font-semibold text-brand-700">
          {count}
        </span>
      )}
    </Link>
  );
}
