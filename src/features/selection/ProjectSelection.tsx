/** One project's part of the selection: heading, bulk actions with their rights, cards. */
import { useId, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { corpusQuery } from '@/api/corpora';
import { currentUserQuery } from '@/api/user';
import { ElementCard } from '@/components/ElementCard';
import { GuardedButton } from '@/components/GuardedButton';
import { useNeedsNetwork } from '@/components/NeedsNetwork';
import { ui } from '@/components/styles';
import { accessOf, blockedReason } from '@/lib/rights';
import { localSelection } from '@/offline/selectionRuntime';
import { useSelectionToggle } from '@/offline/selectionToggle';
import { BULK_ACTIONS, countOf, type BulkAction } from './bulkActions';
import { ClassifySelectionModal, type ClassMatcher } from './ClassifySelectionModal';
import { DeleteSelectionDialog } from './DeleteSelectionDialog';
import { ParentSelectionModal } from './ParentSelectionModal';
import type { SelectionGroup } from './SelectionPage';

export interface ProjectSelectionProps {
  group: SelectionGroup;
  renderAddToDataset?: (corpusId: string, onClose: () => void) => ReactNode;
  /** The export process of the project's selection, from the exports feature; none: no entry. */
  renderExport?: (corpus: { id: string; name: string }, onClose: () => void) => ReactNode;
  matchClasses: ClassMatcher;
}

export function ProjectSelection({
  group,
  renderAddToDataset,
  renderExport,
  matchClasses,
}: ProjectSelectionProps) {
  const { corpusId, rows } = group;
  const corpus = useQuery(corpusQuery(corpusId));
  const user = useQuery(currentUserQuery).data ?? null;
  const offline = useNeedsNetwork();
  const toggle = useSelectionToggle();
  const [action, setAction] = useState<BulkAction | null>(null);
  const headingId = useId();
  const name = corpus.data?.name ?? group.corpusName ?? 'Project';
  const access = accessOf(corpus.data, user);
  const types = corpus.data?.types ?? [];
  const typeName = (slug: string) => types.find((type) => type.slug === slug)?.display_name;
  // Bulk actions run on the server: offline they wait, saying so, before rights are weighed.
  const blocked = (key: BulkAction) =>
    offline ??
    (corpus.data ? blockedReason(BULK_ACTIONS[key].needs, access) : 'Loading the project…');
  const close = () => setAction(null);
  const ids = rows.map((row) => row.id);
  const modalProps = { corpusId, corpusName: name, count: rows.length, onClose: close };

  return (
    <section aria-labelledby={headingId} className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 pb-2">
        <h2 id={headingId} className="text-lg font-semibold text-slate-900">
          {name}{' '}
          <span className="text-sm font-normal text-slate-500">
            ({countOf(rows.length, 'element')})
          </span>
        </h2>
        <button
          type="button"
          className={ui.secondaryButton}
          onClick={() => void localSelection.unselect(ids)}
        >
          Unselect
        </button>
      </div>
      <div
        role="group"
        aria-label={`Actions on the selection of ${name}`}
        className="flex flex-wrap gap-2"
      >
        {(Object.keys(BULK_ACTIONS) as BulkAction[])
          .filter(
            (key) =>
              (key !== 'dataset' || renderAddToDataset) && (key !== 'export' || renderExport),
          )
          .map((key) => (
            <GuardedButton
              key={key}
              blocked={blocked(key)}
              className={BULK_ACTIONS[key].danger ? ui.dangerOutlineButton : ui.secondaryButton}
              onClick={() => setAction(key)}
            >
              {BULK_ACTIONS[key].label}
            </GuardedButton>
          ))}
      </div>
      <ul
        aria-label={`Selected elements of ${name}`}
        className="grid grid-cols-2 gap-4 lg:grid-cols-4"
      >
        {rows.map((row) => (
          <li key={row.id} className="min-w-0">
            <ElementCard
              element={row.element}
              typeName={typeName(row.element.type)}
              selection={toggle(row.element, { id: corpusId, name })}
            />
          </li>
        ))}
      </ul>
      {action === 'dataset' && renderAddToDataset?.(corpusId, close)}
      {action === 'export' && renderExport?.({ id: corpusId, name }, close)}
      {(action === 'classify' || action === 'validate') && (
        <ClassifySelectionModal
          matchClasses={matchClasses}
          mode={action === 'classify' ? 'create' : 'validate'}
          {...modalProps}
        />
      )}
      {(action === 'move' || action === 'link') && (
        <ParentSelectionModal mode={action} {...modalProps} />
      )}
      {action === 'delete' && (
        <DeleteSelectionDialog corpusId={corpusId} corpusName={name} ids={ids} onClose={close} />
      )}
    </section>
  );
}
