import { useId, useState, type MouseEvent, type ReactNode } from 'react';

/** The page jump input shows above this many pages (spec 001 §9). */
export const PAGE_JUMP_THRESHOLD = 3;

export function lastPage(count: number, pageSize: number): number {
  return Math.max(1, Math.ceil(count / Math.max(1, pageSize)));
}

/** The page a jump leads to: an integer from 1 to the last page, not the current one. */
export function parsePageJump(value: string, current: number, last: number): number | null {
  const trimmed = value.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const page = Number(trimmed);
  return page >= 1 && page <= last && page !== current ? page : null;
}

/** First, previous, current, next and last, without repeats, in order. */
export function visiblePages(current: number, last: number): number[] {
  return [...new Set([1, current - 1, current, current + 1, last])]
    .filter((page) => page >= 1 && page <= last)
    .sort((a, b) => a - b);
}

interface PageModeProps {
  mode?: 'page';
  count: number;
  page: number;
  pageSize: number;
  /** The counted word, e.g. "element"; the text uses `plural` unless there is exactly one. */
  singular: string;
  plural?: string;
  onPageChange: (page: number) => void;
  /** A real address per page, so a page can be opened in a new tab; buttons without it. */
  hrefFor?: (page: number) => string;
  /** The 'Go to page' input; on by default, a second bar under a list can leave it out. */
  showJump?: boolean;
  label?: string;
}

interface CursorModeProps {
  mode: 'cursor';
  hasPrevious: boolean;
  hasNext: boolean;
  onPrevious: () => void;
  onNext: () => void;
  /** Shows 'No results' instead of the buttons. */
  empty?: boolean;
  label?: string;
}

export type PaginationBarProps = PageModeProps | CursorModeProps;

const base =
  'inline-flex min-w-9 items-center justify-center rounded-md border px-2.5 py-1 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500';
const idle = `${base} border-slate-300 bg-white text-slate-700 hover:bg-slate-50`;
const current = `${base} border-brand-600 bg-brand-600 text-white`;
const disabled = `${base} cursor-not-allowed border-slate-200 bg-slate-50 text-slate-400`;

/** The pagination bar of spec 001 §2: page numbers, or Previous/Next for cursor lists. */
export function PaginationBar(props: PaginationBarProps) {
  return props.mode === 'cursor' ? <CursorBar {...props} /> : <PageBar {...props} />;
}

function CursorBar({ hasPrevious, hasNext, onPrevious, onNext, empty, label }: CursorModeProps) {
  if (empty) return <p className="text-sm text-slate-600">No results</p>;
  return (
    <nav aria-label={label ?? 'Pagination'} className="flex items-center gap-2">
      <button
        type="button"
        className={hasPrevious ? idle : disabled}
        disabled={!hasPrevious}
        onClick={onPrevious}
      >
        Previous
      </button>
      <button
        type="button"
        className={hasNext ? idle : disabled}
        disabled={!hasNext}
        onClick={onNext}
      >
        Next
      </button>
    </nav>
  );
}

function PageBar({
  count,
  page,
  pageSize,
  singular,
  plural = `${singular}s`,
  onPageChange,
  hrefFor,
  showJump = true,
  label,
}: PageModeProps) {
  if (count <= 0) return <p className="text-sm text-slate-600">No results</p>;
  const last = lastPage(count, pageSize);
  const first = Math.min(count, (page - 1) * pageSize + 1);
  const end = Math.min(count, page * pageSize);
  const pages = visiblePages(page, last);

  return (
    <nav
      aria-label={label ?? 'Pagination'}
      className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2"
    >
      <p className="text-sm text-slate-600">
        Items {first} to {end} out of {count} {count === 1 ? singular : plural}
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <ul className="flex flex-wrap items-center gap-1">
          <li>
            <PageLink
              target={page - 1}
              last={last}
              hrefFor={hrefFor}
              onPageChange={onPageChange}
              label="Previous page"
            >
              ‹<span className="sr-only sm:not-sr-only sm:ml-1">Previous</span>
            </PageLink>
          </li>
          {pages.map((target, index) => (
            <li key={target} className="flex items-center gap-1">
              {index > 0 && target - pages[index - 1]! > 1 && (
                <span aria-hidden="true" className="px-1 text-slate-400">
                  …
                </span>
              )}
              <PageLink
                target={target}
                last={last}
                hrefFor={hrefFor}
                onPageChange={onPageChange}
                current={target === page}
                label={target === page ? `Page ${target}` : `Go to page ${target}`}
              >
                {target}
              </PageLink>
            </li>
          ))}
          <li>
            <PageLink
              target={page + 1}
              last={last}
              hrefFor={hrefFor}
              onPageChange={onPageChange}
              label="Next page"
            >
              <span className="sr-only sm:not-sr-only sm:mr-1">Next</span>›
            </PageLink>
          </li>
        </ul>
        {showJump && last > PAGE_JUMP_THRESHOLD && (
          <PageJump current={page} last={last} onPageChange={onPageChange} />
        )}
      </div>
    </nav>
  );
}

function PageLink({
  target,
  last,
  hrefFor,
  onPageChange,
  label,
  current: isCurrent = false,
  children,
}: {
  target: number;
  last: number;
  hrefFor: ((page: number) => string) | undefined;
  onPageChange: (page: number) => void;
  label: string;
  current?: boolean;
  children: ReactNode;
}) {
  if (target < 1 || target > last) {
    // A link without a target, announced as unavailable rather than dropped, so the bar keeps
    // its shape and a screen reader still hears where the ends are.
    return (
      <a role="link" aria-disabled="true" aria-label={label} className={disabled}>
        {children}
      </a>
    );
  }
  const className = isCurrent ? current : idle;
  const ariaCurrent = isCurrent ? ('page' as const) : undefined;
  if (!hrefFor) {
    return (
      <button
        type="button"
        aria-label={label}
        aria-current={ariaCurrent}
        className={className}
        onClick={() => onPageChange(target)}
      >
        {children}
      </button>
    );
  }
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    // Modified clicks keep the browser's meaning (new tab, new window).
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
      return;
    event.preventDefault();
    onPageChange(target);
  };
  return (
    <a
      href={hrefFor(target)}
      aria-label={label}
      aria-current={ariaCurrent}
      className={className}
      onClick={follow}
    >
      {children}
    </a>
  );
}

function PageJump({
  current: currentPage,
  last,
  onPageChange,
}: {
  current: number;
  last: number;
  onPageChange: (page: number) => void;
}) {
  const [value, setValue] = useState('');
  const id = useId();
  const hintId = useId();
  const target = parsePageJump(value, currentPage, last);
  const invalid = value.trim() !== '' && target === null;
  return (
    <form
      className="flex items-center gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        if (target === null) return;
        setValue('');
        onPageChange(target);
      }}
    >
      <label htmlFor={id} className="text-sm text-slate-600">
        Go to page
      </label>
      <input
        id={id}
        type="number"
        inputMode="numeric"
        min={1}
        max={last}
        step={1}
        value={value}
        aria-invalid={invalid}
        aria-describedby={hintId}
        onChange={(event) => setValue(event.target.value)}
        className="w-20 rounded-md border border-slate-300 px-2 py-1 text-sm shadow-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-100 focus:outline-none aria-[invalid=true]:border-red-400"
      />
      <span id={hintId} className="sr-only">
        From 1 to {last}
      </span>
      <button
        type="submit"
        className={target === null ? disabled : idle}
        disabled={target === null}
      >
        Go
      </button>
    </form>
  );
}
