import { useEffect } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import type { Element, Neighbors } from '@/api/types';
import { isTyping } from '@/lib/keyboard';
import { neighbourTarget, parentOf } from './neighbours';

export interface BreadcrumbsProps {
  element: Element;
  corpusName: string;
  neighbours: readonly Neighbors[];
  from: string | null;
}

const crumbLink = 'text-brand-700 hover:underline focus-visible:underline';
const neighbourLink =
  'inline-flex max-w-48 items-center gap-1 truncate rounded border border-slate-300 px-2 py-0.5 text-xs text-slate-700 hover:bg-slate-50';

/**
 * One breadcrumb per parent path (project, ancestors, the element), each with the previous and
 * next siblings along that path. Ctrl+←/→ follow the path the user came along.
 */
export function Breadcrumbs({ element, corpusName, neighbours, from }: BreadcrumbsProps) {
  useNeighbourKeys(neighbours, from);
  const paths = neighbours.length ? neighbours : [null];
  return (
    <nav aria-label="Breadcrumb" className="flex flex-col gap-1 text-sm">
      {paths.map((entry, index) => {
        const parentId = entry ? (parentOf(entry)?.id ?? null) : null;
        return (
          <div
            key={parentId ?? `top-${index}`}
            className="flex flex-wrap items-center gap-x-3 gap-y-1"
          >
            <ol className="flex min-w-0 flex-wrap items-center gap-1 text-slate-600">
              <li>
                <Link
                  to="/browse/$corpusId"
                  params={{ corpusId: element.corpus.id }}
                  className={crumbLink}
                >
                  {corpusName}
                </Link>
              </li>
              {entry?.path.map((ancestor) => (
                <li key={ancestor.id} className="flex items-center gap-1">
                  <span aria-hidden="true">/</span>
                  <Link to="/element/$id" params={{ id: ancestor.id }} className={crumbLink}>
                    {ancestor.name}
                  </Link>
                </li>
              ))}
              <li className="flex items-center gap-1">
                <span aria-hidden="true">/</span>
                <span aria-current="page" className="font-medium text-slate-900">
                  {element.name}
                </span>
              </li>
            </ol>
            {entry && (entry.previous || entry.next) && (
              <span className="flex items-center gap-1">
                {entry.previous && (
                  <Link
                    to="/element/$id"
                    params={{ id: entry.previous.id }}
                    search={parentId ? { from: parentId } : {}}
                    className={neighbourLink}
                    aria-label={`Previous: ${entry.previous.name}`}
                    title={`Previous: ${entry.previous.name} (Ctrl+←)`}
                  >
                    <span aria-hidden="true">←</span> {entry.previous.name}
                  </Link>
                )}
                {entry.next && (
                  <Link
                    to="/element/$id"
                    params={{ id: entry.next.id }}
                    search={parentId ? { from: parentId } : {}}
                    className={neighbourLink}
                    aria-label={`Next: ${entry.next.name}`}
                    title={`Next: ${entry.next.name} (Ctrl+→)`}
                  >
                    {entry.next.name} <span aria-hidden="true">→</span>
                  </Link>
                )}
              </span>
            )}
          </div>
        );
      })}
    </nav>
  );
}

function useNeighbourKeys(neighbours: readonly Neighbors[], from: string | null): void {
  const navigate = useNavigate();
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!event.ctrlKey || event.altKey || event.metaKey || event.shiftKey) return;
      if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
      if (event.defaultPrevented || isTyping(event.target)) return;
      const target = neighbourTarget(
        neighbours,
        from,
        event.key === 'ArrowLeft' ? 'previous' : 'next',
      );
      if (!target) return;
      event.preventDefault();
      void navigate({
        to: '/element/$id',
        params: { id: target.id },
        search: target.from ? { from: target.from } : {},
      });
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [neighbours, from, navigate]);
}
