import { useEffect, useState, useSyncExternalStore } from 'react';
import { Link } from '@tanstack/react-router';
import type { ElementListItem } from '@/api/types';
import { notify } from '@/components/notifications/store';
import { readChildrenPage } from '@/offline/queries';
import { isTyping } from '@/lib/keyboard';
import { createChildrenPager, type ChildrenPager } from './pager';

export interface ChildrenTreeProps {
  /** The element whose children the tree shows; its node starts expanded. */
  root: { id: string; name: string; type: string };
  /** Display name of a type slug. */
  typeName: (slug: string) => string;
  /** The element the page highlights, marked in the tree. */
  highlight?: string | null;
}

function createPager(element: { id: string; name: string }): ChildrenPager {
  return createChildrenPager({
    parent: element,
    // Through the local store: a tree seen once opens offline, with the edits not sent yet.
    fetchPage: (page, pageSize, since) =>
      readChildrenPage(
        element.id,
        { page, page_size: pageSize, order: 'position', with_has_children: true },
        since,
      ),
    onError: (text) => notify({ type: 'error', text }),
  });
}

const buttonClass =
  'rounded border border-slate-300 bg-white px-2 py-0.5 text-xs font-medium text-slate-700 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-500 disabled:opacity-50';

/** The children tree (spec 001 §2): nodes expand on demand and load their children in pages. */
export function ChildrenTree({ root, typeName, highlight = null }: ChildrenTreeProps) {
  return (
    <nav aria-label="Children tree" className="text-sm">
      <ul className="flex flex-col gap-0.5">
        <TreeNode
          element={root}
          typeName={typeName}
          highlight={highlight}
          depth={0}
          initiallyExpanded
        />
      </ul>
    </nav>
  );
}

interface TreeNodeProps {
  element: Pick<ElementListItem, 'id' | 'name' | 'type'> & { has_children?: boolean | null };
  typeName: (slug: string) => string;
  highlight: string | null;
  depth: number;
  initiallyExpanded?: boolean;
}

function TreeNode({
  element,
  typeName,
  highlight,
  depth,
  initiallyExpanded = false,
}: TreeNodeProps) {
  const [expanded, setExpanded] = useState(initiallyExpanded);
  // Nothing is fetched until the node is first expanded.
  const [pager] = useState(() => createPager(element));
  // The root always may have children; other nodes say so when listed with_has_children.
  const expandable = depth === 0 || element.has_children !== false;

  useEffect(() => {
    if (expanded && expandable) void pager.start();
  }, [expanded, expandable, pager]);

  const toggle = () => {
    const next = !expanded;
    setExpanded(next);
    // A list shown again may have changed meanwhile; a 304 keeps it as it is.
    if (next) void pager.revalidate();
  };

  return (
    <li>
      <div
        className={`flex items-center gap-1 rounded px-1 py-0.5 ${element.id === highlight ? 'bg-amber-100' : ''}`}
        style={{ paddingLeft: `${depth * 1}rem` }}
      >
        {expandable && depth > 0 ? (
          <button
            type="button"
            aria-expanded={expanded}
            aria-label={`${expanded ? 'Collapse' : 'Expand'} ${element.name}`}
            className="inline-flex size-6 items-center justify-center rounded text-slate-500 hover:bg-slate-100"
            onClick={toggle}
          >
            <span aria-hidden="true">{expanded ? '▾' : '▸'}</span>
          </button>
        ) : (
          <span className="inline-block size-6" aria-hidden="true" />
        )}
        {depth === 0 ? (
          <span className="font-medium text-slate-900">{element.name}</span>
        ) : (
          <Link
            to="/element/$id"
            params={{ id: element.id }}
            className="min-w-6 truncate leading-6 text-brand-700 hover:underline"
          >
            {element.name}
          </Link>
        )}
        <span className="shrink-0 text-xs text-slate-500">{typeName(element.type)}</span>
      </div>
      {expanded && expandable && (
        <NodeChildren
          pager={pager}
          typeName={typeName}
          highlight={highlight}
          depth={depth + 1}
          isRoot={depth === 0}
        />
      )}
    </li>
  );
}

function NodeChildren({
  pager,
  typeName,
  highlight,
  depth,
  isRoot,
}: {
  pager: ChildrenPager;
  typeName: (slug: string) => string;
  highlight: string | null;
  depth: number;
  isRoot: boolean;
}) {
  const state = useSyncExternalStore(pager.store.subscribe, pager.store.get, pager.store.get);
  const more = state.count === null || state.nextPage !== null;

  // Spec 000's shortcut: "m" loads more children of the page's own element.
  useEffect(() => {
    if (!isRoot) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'm' || event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.defaultPrevented || isTyping(event.target)) return;
      void pager.loadMore();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [isRoot, pager]);

  return (
    <ul className="flex flex-col gap-0.5">
      {state.items.map((child) => (
        <TreeNode
          key={child.id}
          element={child}
          typeName={typeName}
          highlight={highlight}
          depth={depth}
        />
      ))}
      {state.count === 0 && (
        <li className="text-slate-500" style={{ paddingLeft: `${depth + 1.5}rem` }}>
          No children
        </li>
      )}
      {state.loading && (
        <li role="status" className="text-slate-500" style={{ paddingLeft: `${depth + 1.5}rem` }}>
          Loading…
        </li>
      )}
      {state.error && (
        <li role="alert" className="text-red-700" style={{ paddingLeft: `${depth + 1.5}rem` }}>
          {state.error}
        </li>
      )}
      {more && !state.loading && (state.count !== null || state.error) && (
        <li
          className="flex flex-wrap items-center gap-2 py-0.5"
          style={{ paddingLeft: `${depth + 1.5}rem` }}
        >
          {state.count !== null && (
            <span className="text-xs text-slate-500">
              {state.items.length} of {state.count}
            </span>
          )}
          <button type="button" className={buttonClass} onClick={() => void pager.loadMore()}>
            Load more
          </button>
          <button type="button" className={buttonClass} onClick={() => void pager.loadAll()}>
            Load all
          </button>
        </li>
      )}
    </ul>
  );
}
