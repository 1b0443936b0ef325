import type { ReactNode } from 'react';
import { Menu, MenuButton, MenuItem, MenuItems } from '@headlessui/react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { serverInfoQuery } from '@/api/serverInfo';
import { currentUserQuery, isVerified } from '@/api/user';
import type { Corpus, Element } from '@/api/types';
import { setDisplaySetting, useDisplaySettings } from './displaySettings';

export const NOT_YET = 'Not available yet';
const NEED_CONTRIBUTOR = 'You must have a contributor access to this project';
const NEED_ADMIN = 'You must have an admin access to this project';
const NEED_VERIFIED = 'Your email address should be verified';

const itemClass =
  'block w-full px-3 py-1.5 text-left text-sm text-slate-700 data-[focus]:bg-slate-100 data-[disabled]:cursor-not-allowed data-[disabled]:text-slate-400';

export interface NavigationMenuProps {
  element: Element;
  corpus: Corpus | undefined;
  isFolder: boolean;
}

/** The element navigation header menu of spec 001 §2: Project, Elements, Import/Export, Processes, Display. */
export function NavigationMenu({ element, corpus, isFolder }: NavigationMenuProps) {
  const { data: user = null } = useQuery(currentUserQuery);
  const { data: info } = useQuery(serverInfoQuery);
  const display = useDisplaySettings();
  const corpusId = element.corpus.id;
  const rights = corpus?.rights ?? element.rights ?? [];
  const verified = isVerified(user);
  const canWrite = rights.includes('write');
  const isAdmin = rights.includes('admin');
  const importBlocked = !verified ? NEED_VERIFIED : !canWrite ? NEED_CONTRIBUTOR : null;

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
          <Disabled reason={NEED_ADMIN}>Project settings</Disabled>
        )}
      </Section>
      <Section title="Elements">
        <Disabled reason={NOT_YET}>Edit element</Disabled>
        {isFolder && <Disabled reason={NOT_YET}>New folder</Disabled>}
        <Disabled reason={NOT_YET}>Create sub-element</Disabled>
        <Disabled reason={NOT_YET}>Move element</Disabled>
        <Disabled reason={NOT_YET}>Link to another parent</Disabled>
        <Disabled reason={NOT_YET}>Delete filtered elements</Disabled>
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
        <Disabled reason={NOT_YET}>Project exports</Disabled>
      </Section>
      <Section title="Processes">
        <Disabled reason={NOT_YET}>Create a process</Disabled>
        <MenuItem>
          <Link to="/process" className={itemClass}>
            Processes
          </Link>
        </MenuItem>
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
      </Section>
    </nav>
  );
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
