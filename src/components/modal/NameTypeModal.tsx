import type { ReactNode } from 'react';
import type { ElementType } from '@/api/types';
import { ErrorList } from './ErrorList';
import { Modal } from './Modal';
import { SubmitActions } from './ModalActions';
import { NameTypeFields } from './NameTypeFields';
import type { NameTypeForm } from './useNameTypeForm';

export interface NameTypeModalProps {
  title: string;
  form: NameTypeForm;
  /** The types offered, in the project's order. */
  types: readonly ElementType[];
  submitLabel: string;
  pending: boolean;
  /** Called once the form's own checks pass. */
  onSubmit: () => void;
  onClose: () => void;
  /** Why the form cannot be sent yet; null when it can. */
  blocked?: string | null;
  footerStart?: ReactNode;
  /** What the modal says above the fields. */
  children?: ReactNode;
}

/** A modal that asks for an element's name and type: creating, and editing, an element. */
export function NameTypeModal({
  title,
  form,
  types,
  submitLabel,
  pending,
  onSubmit,
  onClose,
  blocked,
  footerStart,
  children,
}: NameTypeModalProps) {
  return (
    <Modal
      title={title}
      onClose={onClose}
      pending={pending}
      onSubmit={() => {
        if (form.check()) onSubmit();
      }}
      footerStart={footerStart}
      footer={
        <SubmitActions label={submitLabel} pending={pending} onCancel={onClose} blocked={blocked} />
      }
    >
      {children}
      <NameTypeFields
        value={form.fields}
        onChange={form.change}
        types={types}
        errors={form.fieldErrors}
        disabled={pending}
      />
      <ErrorList messages={form.generalErrors} />
    </Modal>
  );
}
