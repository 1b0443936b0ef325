import { useState } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { foldersQuery } from '@/api/elements';
import type { ElementListItem } from '@/api/types';

export const NO_FOLDERS = 'No folders found';

export interface FolderRef {
  id: string;
  name: string;
}

export interface FolderPickerProps {
  corpusId: string;
  value: FolderRef | null;
  onChange: (folder: FolderRef) => void;
  /** A folder left out with everything under it (the element being moved cannot hold itself). */
  exclude?: string | null;
  /** Shared by every radio of the tree, so one folder is picked among all levels. */
  name: string;
  describedBy?: string;
}

/**
 * The folder picker tree of spec 001 §2 "Modals": the project's top-level folders, each
 * expanding on demand into its subfolders, page by page.
 */
export function FolderPicker(props: FolderPickerProps) {
  return (
    <div
      className="max-h-80 overflow-y-auto rounded-md border border-slate-200 p-2"
      aria-describedby={props.describedBy}
    >
      <FolderLevel {...props} parentId={null} depth={0} />
    </div>
  );
}

type LevelProps = FolderPickerProps & { parentId: string | null; depth: number };

function FolderLevel(props: LevelProps) {
  const { corpusId, parentId, depth, exclude } = props;
  const query = useInfiniteQuery(foldersQuery(corpusId, parentId));
  const indent = { paddingLeft: `${depth * 1.25 + 1.5}rem` };

  if (query.isPending) {
    return (
      <p role="status" className="py-0.5 text-slate-500" style={indent}>
        Loading…
      </p>
    );
  }
  if (query.isError) {
    return (
      <p role="alert" className="py-0.5 text-red-700" style={indent}>
        The folders could not be loaded: {query.error.message}
      </p>
    );
  }
  const folders = query.data.pages
    .flatMap((page) => page.results)
    .filter((folder) => folder.id !== exclude);
  return (
    <ul className="flex flex-col gap-0.5">
      {folders.map((folder) => (
        <FolderNode key={folder.id} {...props} folder={folder} />
      ))}
      {folders.length === 0 && !query.hasNextPage && (
        <li className="py-0.5 text-slate-500" style={indent}>
          {NO_FOLDERS}
        </li>
      )}
      {query.hasNextPage && (
        <li className="py-0.5" style={indent}>
          <button
            type="button"
            className="rounded border border-slate-300 bg-white px-2 py-0.5 text-xs font-medium text-slate-700 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-500 disabled:opacity-50"
            disabled={query.isFetchingNextPage}
            onClick={() => void query.fetchNextPage()}
          >
            {query.isFetchingNextPage ? 'Loading…' : 'Load more'}
          </button>
        </li>
      )}
    </ul>
  );
}

function FolderNode(props: LevelProps & { folder: ElementListItem }) {
  const { folder, depth, value, onChange, name } = props;
  const [expanded, setExpanded] = useState(false);
  // Lists that say a folder is empty spare a request that can only answer 'No folders found'.
  const expandable = folder.has_children !== false;
  const id = `${name}-${folder.id}`;
  return (
    <li>
      <div
        className={`flex items-center gap-1 rounded px-1 py-0.5 ${value?.id === folder.id ? 'bg-brand-50' : ''}`}
        style={{ paddingLeft: `${depth * 1.25}rem` }}
      >
        {expandable ? (
          <button
            type="button"
            aria-expanded={expanded}
            aria-label={`${expanded ? 'Collapse' : 'Expand'} ${folder.name}`}
            className="inline-flex size-6 shrink-0 items-center justify-center rounded text-slate-500 hover:bg-slate-100"
            onClick={() => setExpanded(!expanded)}
          >
            <span aria-hidden="true">{expanded ? '▾' : '▸'}</span>
          </button>
        ) : (
          <span className="inline-block size-6 shrink-0" aria-hidden="true" />
        )}
        <input
          id={id}
          type="radio"
          name={name}
          value={folder.id}
          checked={value?.id === folder.id}
          onChange={() => onChange({ id: folder.id, name: folder.name })}
          className="size-4 shrink-0 border-slate-300 text-brand-600 focus:ring-brand-500"
        />
        <label htmlFor={id} className="min-w-0 cursor-pointer truncate text-slate-800">
          {folder.name}
        </label>
      </div>
      {expanded && <FolderLevel {...props} parentId={folder.id} depth={depth + 1} />}
    </li>
  );
}
