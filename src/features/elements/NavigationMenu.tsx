import { useState, type ReactNode } from 'react';
import { Menu, MenuButton, MenuItem, MenuItems } from '@headlessui/react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { serverInfoQuery } from '@/api/serverInfo';
import { currentUserQuery } from '@/api/user';
import type { Corpus, Element } from '@/api/types';
import {
  ELEMENT_DELETE,
  FOLDER_WRITE,
  RIGHT_MESSAGES,
  accessOf,
  blockedReason,
  grantsRight,
} from '@/lib/rights';
import { setDisplaySetting, useDisplaySettings } from './displaySettings';
import { ElementModals, type ElementModalName } from './ElementModals';

export const NOT_YET = 'Not available yet';
const LOADING_PROJECT = 'The project is loading';
/** Spec 001 §6: populating without contributor access. */
export const POPULATE_NEEDS_WRITE =
  'You must have a contributor access in order to perform this action.';

const itemClass =
  'block w-full px-3 py-1.5 text-left text-sm text-slate-700 data-[focus]:bg-slate-100 data-[disabled]:cursor-not-allowed data-[disabled]:text-slate-400';

export interface NavigationMenuProps {
  element: Element;
  corpus: Corpus | undefined;
  isFolder: boolean;
  /** Where to go once the element is deleted; the project when it has no parent. */
  parentId: string | null;
  /** The element's children or parents changed through one of the menu's modals. */
  onChanged: () => void;
  /** The "Make available offline" dialog, from the feature that owns it; no entry without. */
  renderOfflineDialog?: (props: OfflineDialogProps) => ReactNode;
  /** The worker results deletion, from the workers feature; no entry without. */
  renderWorkerResultsDialog?: (props: OfflineDialogProps) => ReactNode;
  /** Creates a workers process from this element, from the processes feature; none: not yet. */
  createProcess?: (element: Element) => void;
  /** The project's datasets and the dataset modals, from the datasets feature; none: no entries. */
  datasets?: DatasetMenuParts;
  /** The project exports and the export process, from the exports feature; none: not yet. */
  exports?: ExportMenuParts;
}

/** What the exports feature puts in the Import/Export section. */
export interface ExportMenuParts {
  /** "Project exports": the project's SQLite exports, started, downloaded and deleted. */
  renderProjectExports: (props: { corpus: Corpus; onClose: () => void }) => ReactNode;
  /** "Export to a file": this element written to PDF, PAGE XML, ALTO, DOCX or CSV. */
  renderExportProcess: (props: {
    corpus: Corpus;
    element: Element;
    onClose: () => void;
  }) => ReactNode;
}

/** What the datasets feature puts in the menu (spec 001 §2 Element navigation header menu). */
export interface DatasetMenuParts {
  /** The project's datasets as entries of the Project section. */
  renderList: (props: { corpusId: string; itemClass: string }) => ReactNode;
  /** The dataset create modal, for "Create a dataset". */
  renderCreate: (props: { corpusId: string; canAdmin: boolean; onClose: () => void }) => ReactNode;
  /** "Add to dataset": this element into a set. */
  renderAddTo: (props: { element: Element; onClose: () => void }) => ReactNode;
  /** "Populate a dataset" from this folder. */
  renderPopulate: (props: { corpus: Corpus; element: Element; onClose: () => void }) => ReactNode;
}

export interface OfflineDialogProps {
  element: Element;
  onClose: () => void;
}

/** The element navigation header menu of spec 001 §2: Project, Elements, Import/Export, Processes, Display. */
export function NavigationMenu({
  element,
  corpus,
  isFolder,
  parentId,
  onChanged,
  renderOfflineDialog,
  renderWorkerResultsDialog,
  createProcess,
  datasets,
  exports,
}: NavigationMenuProps) {
  const { data: user = null } = useQuery(currentUserQuery);
  const { data: info } = useQuery(serverInfoQuery);
  const display = useDisplaySettings();
  const [modal, setModal] = useState<ElementModalName | null>(null);
  const [offlineOpen, setOfflineOpen] = useState(false);
  const [resultsOpen, setResultsOpen] = useState(false);
  const [datasetModal, setDatasetModal] = useState<'create' | 'add' | 'populate' | null>(null);
  const [exportModal, setExportModal] = useState<'project' | 'process' | null>(null);
  const corpusId = element.corpus.id;
  const access = accessOf(corpus, user, element.rights ?? []);
  const { verified } = access;
  const canWrite = grantsRight(access.rights, 'write');
  const isAdmin = grantsRight(access.rights, 'admin');
  const importBlocked = !verified
    ? RIGHT_MESSAGES.verified
    : !canWrite
      ? RIGHT_MESSAGES.contributor
      : null;
  // The modals need the project's types: until it is in, they wait.
  const guard = (reason: string | null) => (corpus ? reason : LOADING_PROJECT);
  const writeBlocked = guard(blockedReason({ right: 'write' }, access));
  const folderBlocked = guard(blockedReason(FOLDER_WRITE, access));
  const deleteBlocked = guard(blockedReason(ELEMENT_DELETE, access));
  const datasetCreateBlocked = guard(blockedReason({ right: 'write', verified: true }, access));
  // Populating draws elements from under this folder (spec 001 §5 New folder, §6).
  const populateBlocked = guard(
    canWrite
      ? blockedReason({ right: 'write', verified: true, folderType: true }, access)
      : POPULATE_NEEDS_WRITE,
  );
  const action = (name: ElementModalName, reason: string | null, label: string) => (
    <Action reason={reason} onSelect={() => setModal(name)}>
      {label}
    </Action>
  );

  return (
    <nav aria-label="Element navigation" className="flex flex-wrap items-center gap-1">
      <Section title="Project">
        <MenuItem>
          <Link to="/browse/$corpusId" params={{ corpusId }} className={itemClass}>
            Browse project
          </Link>
        </MenuItem>
        {info?.features.search && (
          <MenuItem>
            <Link to="/search/{-$corpusId}" params={{ corpusId }} className={itemClass}>
              Search in project
            </Link>
          </MenuItem>
        )}
        {isAdmin ? (
          <MenuItem>
            <Link to="/corpus/$corpusId" params={{ corpusId }} className={itemClass}>
              Project settings
            </Link>
          </MenuItem>
        ) : (
          <Disabled reason={RIGHT_MESSAGES.admin}>Project settings</Disabled>
        )}
        {datasets && (
          <>
            <Action reason={datasetCreateBlocked} onSelect={() => setDatasetModal('create')}>
              Create a dataset
            </Action>
            {datasets.renderList({ corpusId, itemClass })}
          </>
        )}
      </Section>
      <Section title="Elements">
        {action('edit', writeBlocked, 'Edit element')}
        {isFolder && action('folder', folderBlocked, 'New folder')}
        {action('child', writeBlocked, 'Create sub-element')}
        {action('move', folderBlocked, 'Move element')}
        {action('link', folderBlocked, 'Link to another parent')}
        {action('delete', deleteBlocked, 'Delete element')}
        {datasets && (
          <Action reason={writeBlocked} onSelect={() => setDatasetModal('add')}>
            Add to dataset
          </Action>
        )}
        {datasets && isFolder && (
          <Action reason={populateBlocked} onSelect={() => setDatasetModal('populate')}>
            Populate a dataset
          </Action>
        )}
      </Section>
      <Section title="Import/Export">
        {importBlocked ? (
          <Disabled reason={importBlocked}>Import files</Disabled>
        ) : (
          <MenuItem>
            <Link
              to="/process/files/$corpusId/{-$folderId}"
              params={{ corpusId, folderId: isFolder ? element.id : undefined }}
              className={itemClass}
            >
              Import files
            </Link>
          </MenuItem>
        )}
        {exports ? (
          <>
            <Action reason={guard(null)} onSelect={() => setExportModal('project')}>
              Project exports
            </Action>
            {/* Spec 001 §6: an export process needs the project's admin right. */}
            <Action
              reason={guard(isAdmin ? null : RIGHT_MESSAGES.admin)}
              onSelect={() => setExportModal('process')}
            >
              Export to a file
            </Action>
          </>
        ) : (
          <Disabled reason={NOT_YET}>Project exports</Disabled>
        )}
      </Section>
      <Section title="Processes">
        {createProcess ? (
          // Spec 000 §6: process creation needs the project's admin right.
          <Action
            reason={isAdmin ? null : RIGHT_MESSAGES.admin}
            onSelect={() => createProcess(element)}
          >
            Create a process
          </Action>
        ) : (
          <Disabled reason={NOT_YET}>Create a process</Disabled>
        )}
        <MenuItem>
          <Link to="/process" className={itemClass}>
            Processes
          </Link>
        </MenuItem>
        {renderWorkerResultsDialog && (
          // Spec 000 §6: deleting worker results needs the project's admin right.
          <Action
            reason={isAdmin ? null : RIGHT_MESSAGES.admin}
            onSelect={() => setResultsOpen(true)}
          >
            Delete worker results
          </Action>
        )}
      </Section>
      <Section title="Display">
        <MenuItem>
          <button
            type="button"
            className={itemClass}
            onClick={() => setDisplaySetting('annotationsTree', !display.annotationsTree)}
          >
            {display.annotationsTree ? 'Hide annotations tree' : 'Show annotations tree'}
          </button>
        </MenuItem>
        <MenuItem>
          <button
            type="button"
            className={itemClass}
            onClick={() => setDisplaySetting('folderTree', !display.folderTree)}
          >
            {display.folderTree ? 'Hide folder tree' : 'Show folder tree'}
          </button>
        </MenuItem>
        {renderOfflineDialog && (
          <Action reason={null} onSelect={() => setOfflineOpen(true)}>
            Make available offline
          </Action>
        )}
      </Section>
      {offlineOpen && renderOfflineDialog?.({ element, onClose: () => setOfflineOpen(false) })}
      {resultsOpen &&
        renderWorkerResultsDialog?.({ element, onClose: () => setResultsOpen(false) })}
      {datasets && corpus && (
        <DatasetModal
          shown={datasetModal}
          parts={datasets}
          element={element}
          corpus={corpus}
          canAdmin={isAdmin}
          onClose={() => setDatasetModal(null)}
        />
      )}
      {exports &&
        corpus &&
        exportModal === 'project' &&
        exports.renderProjectExports({ corpus, onClose: () => setExportModal(null) })}
      {exports &&
        corpus &&
        exportModal === 'process' &&
        exports.renderExportProcess({ corpus, element, onClose: () => setExportModal(null) })}
      {corpus && (
        <ElementModals
          shown={modal}
          onShow={setModal}
          element={element}
          corpus={corpus}
          parentId={parentId}
          deleteBlocked={deleteBlocked}
          onChanged={onChanged}
        />
      )}
    </nav>
  );
}

function DatasetModal({
  shown,
  parts,
  element,
  corpus,
  canAdmin,
  onClose,
}: {
  shown: 'create' | 'add' | 'populate' | null;
  parts: DatasetMenuParts;
  element: Element;
  corpus: Corpus;
  canAdmin: boolean;
  onClose: () => void;
}) {
  if (shown === 'create') return parts.renderCreate({ corpusId: corpus.id, canAdmin, onClose });
  if (shown === 'add') return parts.renderAddTo({ element, onClose });
  if (shown === 'populate') return parts.renderPopulate({ corpus, element, onClose });
  return null;
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Menu>
      <MenuButton className="flex items-center gap-1 rounded border border-slate-300 bg-white px-2.5 py-1 text-sm font-medium text-slate-700 hover:bg-slate-50 data-[open]:bg-slate-100">
        {title}
        <span aria-hidden="true" className="text-xs">
          ▾
        </span>
      </MenuButton>
      <MenuItems
        anchor="bottom start"
        className="z-40 mt-1 w-56 rounded-md border border-slate-200 bg-white py-1 shadow-lg focus:outline-none"
      >
        {children}
      </MenuItems>
    </Menu>
  );
}

/** A menu entry that opens a modal, or says in its tooltip why it cannot. */
function Action({
  reason,
  onSelect,
  children,
}: {
  reason: string | null;
  onSelect: () => void;
  children: ReactNode;
}) {
  if (reason) return <Disabled reason={reason}>{children}</Disabled>;
  return (
    <MenuItem>
      <button type="button" className={itemClass} onClick={onSelect}>
        {children}
      </button>
    </MenuItem>
  );
}

/** An action a later version (or more rights) enables; the tooltip says which. */
function Disabled({ reason, children }: { reason: string; children: ReactNode }) {
  return (
    <MenuItem disabled>
      <span className={itemClass} title={reason}>
        {children}
      </span>
    </MenuItem>
  );
}
