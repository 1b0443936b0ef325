/**
 * A project's datasets in a header menu (spec 001 §2 Element navigation header menu, Project):
 * each links to its page with its state; "Create a dataset" opens the dataset modal. The entries
 * fit any Headless UI menu: the element page's Project section, or `DatasetsMenu` on its own.
 */
import { useState, type ReactNode } from 'react';
import {
  Menu,
  MenuButton,
  MenuHeading,
  MenuItem,
  MenuItems,
  MenuSection,
  MenuSeparator,
} from '@headlessui/react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import type { Dataset } from '@/api/datasets';
import { storedCorpusDatasetsQuery } from '@/offline/datasetReads';
import { corpusQuery } from '@/api/corpora';
import { currentUserQuery } from '@/api/user';
import { accessOf, blockedReason, grantsRight } from '@/lib/rights';
import { DatasetFormModal } from './DatasetFormModal';
import { DATASET_TEXT } from './datasetRights';
import { DatasetStateBadge } from './page/DatasetStateBadge';

export const MENU_ITEM_CLASS =
  'block w-full px-3 py-1.5 text-left text-sm text-slate-700 data-[focus]:bg-slate-100 data-[disabled]:cursor-not-allowed data-[disabled]:text-slate-400';

/** The project's datasets as menu entries, under a "Datasets" heading. */
export function DatasetMenuEntries({
  corpusId,
  itemClass = MENU_ITEM_CLASS,
}: {
  corpusId: string;
  itemClass?: string;
}) {
  // Read when the menu opens (its entries mount then), not with every element page.
  const datasets = useQuery(storedCorpusDatasetsQuery(corpusId));
  return (
    <>
      <MenuSeparator className="my-1 h-px bg-slate-200" />
      <MenuSection aria-label="Datasets">
        <MenuHeading className="px-3 pt-1 pb-0.5 text-xs font-semibold tracking-wide text-slate-500 uppercase">
          Datasets
        </MenuHeading>
        {datasets.isPending ? (
          <Note itemClass={itemClass}>Loading…</Note>
        ) : datasets.isError ? (
          <Note itemClass={itemClass} error>
            {DATASET_TEXT.fetchFailed}
          </Note>
        ) : datasets.data.length === 0 ? (
          <Note itemClass={itemClass}>{DATASET_TEXT.noDataset}</Note>
        ) : (
          datasets.data.map((dataset) => (
            <MenuItem key={dataset.id}>
              <Link
                to="/dataset/$datasetId"
                params={{ datasetId: dataset.id }}
                className={`${itemClass} flex items-center justify-between gap-2`}
              >
                <span className="truncate">{dataset.name}</span>
                <DatasetStateBadge state={dataset.state} />
              </Link>
            </MenuItem>
          ))
        )}
      </MenuSection>
    </>
  );
}

function Note({
  itemClass,
  error = false,
  children,
}: {
  itemClass: string;
  error?: boolean;
  children: ReactNode;
}) {
  return (
    <MenuItem disabled>
      <span className={`${itemClass} ${error ? 'text-red-700!' : ''}`} role="note">
        {children}
      </span>
    </MenuItem>
  );
}

/**
 * "Create a dataset": why it is not allowed (write and a verified e-mail, in the menu's
 * words), opening it, and the modal to render while it is open.
 */
export function useCreateDataset(corpusId: string) {
  const { data: corpus } = useQuery(corpusQuery(corpusId));
  const { data: user = null } = useQuery(currentUserQuery);
  const [open, setOpen] = useState(false);
  const access = accessOf(corpus, user);
  const blocked = corpus
    ? blockedReason({ right: 'write', verified: true }, access)
    : 'The project is loading';
  const modal = open ? (
    <CreateDatasetModal
      corpusId={corpusId}
      canAdmin={grantsRight(access.rights, 'admin')}
      onClose={() => setOpen(false)}
    />
  ) : null;
  return { blocked, open: () => setOpen(true), modal };
}

/** The create modal of the menus: a new dataset opens its page. */
export function CreateDatasetModal(props: {
  corpusId: string;
  canAdmin: boolean;
  onClose: () => void;
}) {
  const navigate = useNavigate();
  return (
    <DatasetFormModal
      {...props}
      onSaved={(dataset: Dataset) =>
        void navigate({ to: '/dataset/$datasetId', params: { datasetId: dataset.id } })
      }
    />
  );
}

/**
 * The datasets on their own, as a "Datasets" menu button: for pages without the element
 * navigation menu, such as the project's navigation page.
 */
export function DatasetsMenu({ corpusId }: { corpusId: string }) {
  const create = useCreateDataset(corpusId);
  return (
    <>
      <Menu>
        <MenuButton className="flex items-center gap-1 rounded border border-slate-300 bg-white px-2.5 py-1 text-sm font-medium text-slate-700 hover:bg-slate-50 data-[open]:bg-slate-100">
          Datasets
          <span aria-hidden="true" className="text-xs">
            ▾
          </span>
        </MenuButton>
        <MenuItems
          anchor="bottom start"
          className="z-40 mt-1 w-64 rounded-md border border-slate-200 bg-white py-1 shadow-lg focus:outline-none"
        >
          <CreateDatasetEntry blocked={create.blocked} onSelect={create.open} />
          <DatasetMenuEntries corpusId={corpusId} />
        </MenuItems>
      </Menu>
      {create.modal}
    </>
  );
}

export function CreateDatasetEntry({
  blocked,
  onSelect,
  itemClass = MENU_ITEM_CLASS,
}: {
  blocked: string | null;
  onSelect: () => void;
  itemClass?: string;
}) {
  if (blocked) {
    return (
      <MenuItem disabled>
        <span className={itemClass} title={blocked}>
          Create a dataset
        </span>
      </MenuItem>
    );
  }
  return (
    <MenuItem>
      <button type="button" className={itemClass} onClick={onSelect}>
        Create a dataset
      </button>
    </MenuItem>
  );
}
