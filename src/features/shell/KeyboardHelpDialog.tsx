import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from '@headlessui/react';
import { useStore } from '@/lib/store';
import {
  SHORTCUTS,
  type ShortcutKey,
  closeKeyboardHelp,
  keyboardHelpOpen,
  useKeyboardHelpShortcut,
} from './keyboardHelp';

export function KeyboardHelpDialog() {
  useKeyboardHelpShortcut();
  const open = useStore(keyboardHelpOpen);
  return (
    <Dialog open={open} onClose={closeKeyboardHelp} className="relative z-50">
      <DialogBackdrop className="fixed inset-0 bg-slate-900/40" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel className="w-full max-w-lg rounded-lg bg-white p-6 shadow-xl">
          <div className="flex items-start justify-between gap-4">
            <DialogTitle className="text-lg font-semibold text-slate-900">
              Keyboard shortcuts
            </DialogTitle>
            <button
              type="button"
              onClick={closeKeyboardHelp}
              aria-label="Close"
              className="rounded px-2 text-xl leading-none text-slate-500 hover:bg-slate-100 hover:text-slate-800"
            >
              ×
            </button>
          </div>
          <table className="mt-4 w-full text-sm">
            <thead className="sr-only">
              <tr>
                <th scope="col">Keys</th>
                <th scope="col">Action</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {SHORTCUTS.map((shortcut) => (
                <tr key={shortcut.description}>
                  <td className="py-2 pr-4 whitespace-nowrap">
                    {shortcut.keys.map((key, index) => (
                      <span key={String(key)}>
                        {index > 0 && <span className="mx-1 text-slate-400">+</span>}
                        <ShortcutKeys keys={key} />
                      </span>
                    ))}
                  </td>
                  <td className="py-2 text-slate-700">{shortcut.description}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </DialogPanel>
      </div>
    </Dialog>
  );
}

const kbdClass =
  'rounded border border-slate-300 bg-slate-50 px-1.5 py-0.5 font-mono text-xs text-slate-800 shadow-sm';

/** A key, or its alternatives joined by "or" so they do not read as one chord. */
function ShortcutKeys({ keys }: { keys: ShortcutKey }) {
  if (typeof keys === 'string') return <kbd className={kbdClass}>{keys}</kbd>;
  return keys.map((key, index) => (
    <span key={key}>
      {index > 0 && <span className="mx-1 text-xs text-slate-500">or</span>}
      <kbd className={kbdClass}>{key}</kbd>
    </span>
  ));
}
