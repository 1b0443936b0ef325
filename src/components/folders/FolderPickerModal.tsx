import { useId, useState, type ReactNode } from 'react';
import { ErrorList } from '@/components/modal/ErrorList';
import { Modal } from '@/components/modal/Modal';
import { SubmitActions } from '@/components/modal/ModalActions';
import { ui } from '@/components/styles';
import { FolderPicker, type FolderRef } from './FolderPicker';

/** Spec 001 §5: moving or linking needs a picked folder. */
export const PICK_A_FOLDER = 'Pick a folder first.';

export interface FolderPickerModalProps {
  title: string;
  description: ReactNode;
  confirmLabel: string;
  corpusId: string;
  exclude?: string | null;
  pending: boolean;
  /** What the server said of the last attempt (destination, parent… errors). */
  errors: readonly string[];
  onConfirm: (folder: FolderRef) => void;
  onClose: () => void;
}

/** A modal whose one question is "which folder?": moving and linking elements ask it. */
export function FolderPickerModal({
  title,
  description,
  confirmLabel,
  corpusId,
  exclude,
  pending,
  errors,
  onConfirm,
  onClose,
}: FolderPickerModalProps) {
  const [picked, setPicked] = useState<FolderRef | null>(null);
  const name = useId();
  const hintId = useId();
  const errorsId = useId();
  return (
    <Modal
      title={title}
      onClose={onClose}
      pending={pending}
      size="lg"
      onSubmit={() => picked && onConfirm(picked)}
      footer={
        <SubmitActions
          label={confirmLabel}
          pending={pending}
          onCancel={onClose}
          blocked={picked ? null : PICK_A_FOLDER}
        />
      }
    >
      <div>{description}</div>
      <fieldset>
        <legend className={ui.label}>Folder</legend>
        <div className="mt-1">
          <FolderPicker
            corpusId={corpusId}
            value={picked}
            onChange={setPicked}
            exclude={exclude}
            name={name}
            describedBy={errors.length ? errorsId : undefined}
          />
        </div>
        <p id={hintId} className={ui.help} aria-live="polite">
          {picked ? `Picked folder: ${picked.name}` : PICK_A_FOLDER}
        </p>
      </fieldset>
      <ErrorList id={errorsId} messages={errors} />
    </Modal>
  );
}
