import type { FormEvent, ReactNode } from 'react';
import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from '@headlessui/react';

export interface ModalProps {
  title: string;
  onClose: () => void;
  /** While a request runs the modal stays: closing it would hide how the request ended. */
  pending?: boolean;
  /** Makes the body a form, so Enter in a field submits it. */
  onSubmit?: () => void;
  children: ReactNode;
  /** The buttons, right-aligned; `footerStart` sits at the left (a Delete beside Save). */
  footer: ReactNode;
  footerStart?: ReactNode;
  size?: 'md' | 'lg';
}

/** A modal of the element screens; its owner mounts it to open it and unmounts it to close. */
export function Modal({
  title,
  onClose,
  pending = false,
  onSubmit,
  children,
  footer,
  footerStart,
  size = 'md',
}: ModalProps) {
  const body = (
    <>
      <div className="mt-3 flex flex-col gap-4 text-sm text-slate-700">{children}</div>
      <div className="mt-6 flex flex-wrap items-center justify-between gap-2">
        <div>{footerStart}</div>
        <div className="flex justify-end gap-2">{footer}</div>
      </div>
    </>
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!pending) onSubmit?.();
  };
  return (
    <Dialog open onClose={() => !pending && onClose()} className="relative z-40">
      <DialogBackdrop className="fixed inset-0 bg-slate-900/40" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel
          className={`flex max-h-[90vh] w-full flex-col overflow-y-auto rounded-lg bg-white p-6 shadow-xl ${size === 'lg' ? 'max-w-2xl' : 'max-w-md'}`}
        >
          <DialogTitle className="text-lg font-semibold text-slate-900">{title}</DialogTitle>
          {onSubmit ? (
            <form noValidate onSubmit={submit}>
              {body}
            </form>
          ) : (
            body
          )}
        </DialogPanel>
      </div>
    </Dialog>
  );
}
