/**
 * The forms the annotation tools open: the creation form of a drawn shape (unless batch
 * creation is on), the type form of the type-edit tool and the deletion confirmation (unless
 * their batch switches are on). Enter in a form creates or updates.
 */
import { useState } from 'react';
import type { ElementType, MlClassRef } from '@/api/types';
import { ConfirmDeletion } from '@/components/modal/ConfirmDeletion';
import { Modal } from '@/components/modal/Modal';
import { SubmitActions } from '@/components/modal/ModalActions';
import { NameTypeModal } from '@/components/modal/NameTypeModal';
import { useNameTypeForm } from '@/components/modal/useNameTypeForm';
import { ui } from '@/components/styles';

export function CreationDialog({
  types,
  classes,
  defaultType,
  onCreate,
  onClose,
}: {
  types: readonly ElementType[];
  /** The project's ML classes: the new element can be classified as it is created. */
  classes: readonly MlClassRef[];
  defaultType: string | null;
  onCreate: (name: string, type: string, mlClass: MlClassRef | null) => Promise<void>;
  onClose: () => void;
}) {
  const form = useNameTypeForm({ name: '', type: defaultType ?? '' });
  const [classId, setClassId] = useState('');
  const [pending, setPending] = useState(false);
  return (
    <NameTypeModal
      title="Create an annotation"
      form={form}
      types={types}
      submitLabel="Create"
      pending={pending}
      onSubmit={() => {
        setPending(true);
        const mlClass = classes.find((item) => item.id === classId) ?? null;
        onCreate(form.fields.name.trim(), form.fields.type, mlClass)
          .then(onClose)
          .catch((error: unknown) => {
            setPending(false);
            form.fail(error, 'An error occurred during element creation:');
          });
      }}
      onClose={onClose}
    >
      {classes.length > 0 && (
        <label className={ui.label}>
          Class
          <select
            className={ui.input}
            value={classId}
            disabled={pending}
            onChange={(event) => setClassId(event.target.value)}
          >
            <option value="">No class</option>
            {classes.map((mlClass) => (
              <option key={mlClass.id} value={mlClass.id}>
                {mlClass.name}
              </option>
            ))}
          </select>
        </label>
      )}
    </NameTypeModal>
  );
}

export function TypeDialog({
  name,
  types,
  current,
  onSave,
  onClose,
}: {
  name: string;
  types: readonly ElementType[];
  current: string;
  onSave: (type: string) => Promise<void>;
  onClose: () => void;
}) {
  const [type, setType] = useState(current);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <Modal
      title={`Edit the type of ${name}`}
      onClose={onClose}
      pending={pending}
      onSubmit={() => {
        if (type === current) {
          onClose();
          return;
        }
        setPending(true);
        onSave(type)
          .then(onClose)
          .catch((failure: unknown) => {
            setPending(false);
            setError(failure instanceof Error ? failure.message : String(failure));
          });
      }}
      footer={<SubmitActions label="Save" pending={pending} onCancel={onClose} />}
    >
      <label className={ui.label}>
        Type
        <select
          className={ui.input}
          value={type}
          disabled={pending}
          onChange={(event) => setType(event.target.value)}
        >
          {types.map((option) => (
            <option key={option.slug} value={option.slug}>
              {option.display_name}
            </option>
          ))}
        </select>
      </label>
      {error && (
        <p role="alert" className="text-red-700">
          {error}
        </p>
      )}
    </Modal>
  );
}

export function DeleteZoneDialog({
  name,
  onDelete,
  onClose,
}: {
  name: string;
  onDelete: () => Promise<void>;
  onClose: () => void;
}) {
  return (
    <ConfirmDeletion
      title="Delete element"
      what={<strong className="font-semibold text-slate-900">{name}</strong>}
      onDelete={onDelete}
      onClose={onClose}
    />
  );
}
