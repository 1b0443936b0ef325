/**
 * elements-selected (spec 001 §2 "Selection page"): the user's selected elements grouped per
 * project, each group with its bulk actions; 'Unselect all' empties every project's.
 */
import { useMemo, type ReactNode } from 'react';
import { ui } from '@/components/styles';
import { useDocumentTitle } from '@/lib/documentTitle';
import type { LocalSelectionRow } from '@/offline/db';
import { selectedRows } from '@/offline/selection';
import { localSelection } from '@/offline/selectionRuntime';
import { useSelectionState } from '@/offline/selectionToggle';
import { EMPTY_SELECTION, UNSELECT_ALL, countOf } from './bulkActions';
import type { ClassMatcher } from './ClassifySelectionModal';
import { ProjectSelection, type ProjectSelectionProps } from './ProjectSelection';

export interface SelectionGroup {
  corpusId: string;
  /** As the selection last said it; the project's own name replaces it once loaded. */
  corpusName: string | null;
  rows: LocalSelectionRow[];
}

/** The rows per project, projects by name and elements in selection order within one. */
export function groupByProject(rows: readonly LocalSelectionRow[]): SelectionGroup[] {
  const groups = new Map<string, SelectionGroup>();
  for (const row of rows) {
    let group = groups.get(row.corpusId);
    if (!group) {
      group = { corpusId: row.corpusId, corpusName: row.corpusName, rows: [] };
      groups.set(row.corpusId, group);
    }
    group.corpusName ??= row.corpusName;
    group.rows.push(row);
  }
  return [...groups.values()].sort((a, b) =>
    (a.corpusName ?? '').localeCompare(b.corpusName ?? ''),
  );
}

export interface SelectionPageProps {
  /** The Add to dataset modal of a project's selection; the route plugs the datasets feature in. */
  renderAddToDataset?: (corpusId: string, onClose: () => void) => ReactNode;
  /** The export process of a project's selection; the route plugs the exports feature in. */
  renderExport?: ProjectSelectionProps['renderExport'];
  /** The class search of the classifications feature, for the class pickers. */
  matchClasses: ClassMatcher;
}

export function SelectionPage({
  renderAddToDataset,
  renderExport,
  matchClasses,
}: SelectionPageProps) {
  useDocumentTitle(['Selection']);
  const state = useSelectionState();
  const rows = selectedRows(state);
  const groups = useMemo(() => groupByProject(rows), [rows]);

  return (
    <section className="mx-auto max-w-7xl space-y-6 p-6" aria-labelledby="selection-heading">
      <header className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 id="selection-heading" className="text-2xl font-semibold text-brand-900">
            Selection
          </h1>
          {rows.length > 0 && (
            <p className="text-sm text-slate-600">
              {countOf(rows.length, 'element')} in {countOf(groups.length, 'project')}
            </p>
          )}
        </div>
        <button
          type="button"
          className={ui.secondaryButton}
          disabled={rows.length === 0}
          onClick={() => void localSelection.unselectAll()}
        >
          {UNSELECT_ALL}
        </button>
      </header>
      {groups.length === 0 ? (
        state.reading ? (
          <p role="status" className="text-slate-600">
            Loading…
          </p>
        ) : (
          <p className="rounded-lg border border-dashed border-slate-300 p-8 text-center text-slate-600">
            {EMPTY_SELECTION}
          </p>
        )
      ) : (
        groups.map((group) => (
          <ProjectSelection
            key={group.corpusId}
            group={group}
            renderAddToDataset={renderAddToDataset}
            renderExport={renderExport}
            matchClasses={matchClasses}
          />
        ))
      )}
    </section>
  );
}
