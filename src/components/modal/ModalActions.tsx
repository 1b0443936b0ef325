import { ui } from '@/components/styles';

interface ActionsProps {
  /** What the action button says while no request runs. */
  label: string;
  pending: boolean;
  onCancel: () => void;
}

export interface SubmitActionsProps extends ActionsProps {
  /** Why the form cannot be sent yet, shown as the button's tooltip; null when it can. */
  blocked?: string | null;
}

/** Cancel, and the button that submits the modal's form. */
export function SubmitActions({ label, pending, onCancel, blocked = null }: SubmitActionsProps) {
  return (
    <>
      <CancelButton pending={pending} onCancel={onCancel} />
      <button
        type="submit"
        className={ui.primaryButton}
        disabled={!!blocked || pending}
        title={blocked ?? undefined}
      >
        {pending ? 'Please wait…' : label}
      </button>
    </>
  );
}

/** Cancel, focused so that Enter never deletes by accident, and the destructive action. */
export function DangerActions({
  label,
  pending,
  onCancel,
  onConfirm,
}: ActionsProps & { onConfirm: () => void }) {
  return (
    <>
      <CancelButton pending={pending} onCancel={onCancel} autoFocus />
      <button type="button" className={ui.dangerButton} onClick={onConfirm} disabled={pending}>
        {pending ? 'Please wait…' : label}
      </button>
    </>
  );
}

function CancelButton({
  pending,
  onCancel,
  autoFocus = false,
}: {
  pending: boolean;
  onCancel: () => void;
  autoFocus?: boolean;
}) {
  return (
    <button
      type="button"
      autoFocus={autoFocus}
      className={ui.secondaryButton}
      onClick={onCancel}
      disabled={pending}
    >
      Cancel
    </button>
  );
}

/** The one button of a modal that only shows something: Close. */
export function CloseAction({ onClose }: { onClose: () => void }) {
  return (
    <button type="button" className={ui.secondaryButton} onClick={onClose}>
      Close
    </button>
  );
}
