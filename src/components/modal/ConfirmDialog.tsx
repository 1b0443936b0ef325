import type { ReactNode } from 'react';
import { Description, Dialog, DialogBackdrop, DialogPanel, DialogTitle } from '@headlessui/react';
import { DangerActions } from './ModalActions';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  pending?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/** A destructive action's confirmation, asked before anything is sent. */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  pending = false,
  onConfirm,
  onClose,
}: ConfirmDialogProps) {
  return (
    <Dialog open={open} onClose={() => !pending && onClose()} className="relative z-40">
      <DialogBackdrop className="fixed inset-0 bg-slate-900/40" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel className="w-full max-w-md rounded-lg bg-white p-6 shadow-xl">
          <DialogTitle className="text-lg font-semibold text-slate-900">{title}</DialogTitle>
          <Description as="div" className="mt-2 text-sm text-slate-600">
            {children}
          </Description>
          <div className="mt-6 flex justify-end gap-2">
            <DangerActions
              label={confirmLabel}
              pending={pending}
              onCancel={onClose}
              onConfirm={onConfirm}
            />
          </div>
        </DialogPanel>
      </div>
    </Dialog>
  );
}
