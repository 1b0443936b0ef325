import { Link } from '@tanstack/react-router';
import { Menu, MenuButton, MenuItem, MenuItems, MenuSeparator } from '@headlessui/react';
import type { User } from '@/api/types';
import type { ShellAccess } from './access';
import { openKeyboardHelp } from './keyboardHelp';
import { USER_MENU_BUTTON } from './userMenuButton';

const menuItem =
  'block w-full px-4 py-2 text-left text-sm text-slate-700 data-[focus]:bg-brand-50 data-[focus]:text-brand-900';

export function UserMenu({ user, access }: { user: User; access: ShellAccess }) {
  return (
    <Menu>
      <MenuButton className={USER_MENU_BUTTON}>
        {user.display_name || user.email}
        <span aria-hidden="true" className="text-xs">
          ▾
        </span>
      </MenuButton>
      <MenuItems
        anchor="bottom end"
        className="z-40 mt-1 w-52 rounded-md border border-slate-200 bg-white py-1 shadow-lg focus:outline-none"
      >
        <MenuItem>
          <Link to="/user/profile" className={menuItem}>
            Profile
          </Link>
        </MenuItem>
        <MenuItem>
          <Link to="/process/workers/" className={menuItem}>
            Workers
          </Link>
        </MenuItem>
        <MenuItem>
          <Link to="/process/worker-runs" className={menuItem}>
            Worker runs
          </Link>
        </MenuItem>
        <MenuItem>
          <Link to="/models" className={menuItem}>
            Models
          </Link>
        </MenuItem>
        {access.enterprise && (
          <MenuItem>
            <Link to="/budget/" className={menuItem}>
              Budgets
            </Link>
          </MenuItem>
        )}
        {access.enterprise && (
          <MenuItem>
            <Link to="/secret/" className={menuItem}>
              Secrets
            </Link>
          </MenuItem>
        )}
        {access.admin && (
          <MenuItem>
            <Link to="/admin/" className={menuItem}>
              Admin
            </Link>
          </MenuItem>
        )}
        <MenuSeparator className="my-1 h-px bg-slate-200" />
        <MenuItem>
          <button type="button" onClick={openKeyboardHelp} className={menuItem}>
            Keyboard shortcuts
          </button>
        </MenuItem>
        <MenuItem>
          <Link to="/user/logout" className={menuItem}>
            Log out
          </Link>
        </MenuItem>
      </MenuItems>
    </Menu>
  );
}
