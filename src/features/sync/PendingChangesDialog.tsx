import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from '@headlessui/react';
import { PendingChangesPanel } from './PendingChangesPanel';

export interface PendingChangesDialogProps {
  open: boolean;
  onClose: () => void;
}

/** The Pending changes panel over the current page, as the navbar's sync status opens it. */
export function PendingChangesDialog({ open, onClose }: PendingChangesDialogProps) {
  return (
    <Dialog open={open} onClose={onClose} className="relative z-40">
      <DialogBackdrop className="fixed inset-0 bg-slate-900/40" />
      <div className="fixed inset-0 flex items-start justify-center p-4 sm:pt-16">
        <DialogPanel className="flex max-h-[85vh] w-full max-w-3xl flex-col rounded-lg bg-white shadow-xl">
          <div className="flex items-start justify-between gap-4 border-b border-slate-200 px-6 py-4">
            <DialogTitle className="text-lg font-semibold text-slate-900">
              Pending changes
            </DialogTitle>
            <button
              type="button"
              onClick={onClose}
              aria-label="Close"
              className="rounded px-2 text-xl leading-none text-slate-500 hover:bg-slate-100 hover:text-slate-800"
            >
              ×
            </button>
          </div>
          <div className="overflow-y-auto px-6 py-4">
            <PendingChangesPanel />
          </div>
        </DialogPanel>
      </div>
    </Dialog>
  );
}
