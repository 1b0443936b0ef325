import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { errorMessage, fieldErrors } from '@/api/errors';
import type { Model } from '@/api/models';
import { OfflineNote, useNeedsNetwork } from '@/components/NeedsNetwork';
import { ErrorList } from '@/components/modal/ErrorList';
import { Modal } from '@/components/modal/Modal';
import { SubmitActions } from '@/components/modal/ModalActions';
import { ui } from '@/components/styles';
import { useCreateModel } from './api';
import { existingModelId } from './existingModel';
import { ModelFields, type ModelFieldValues } from './ModelFields';
import { cleanModelName, modelNameProblem } from './modelText';

/** "Create a model": a name (required, trimmed, 100 characters at most) and a description. */
export function CreateModelModal({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated: (model: Model) => void;
}) {
  const [values, setValues] = useState<ModelFieldValues>({ name: '', description: '' });
  const create = useCreateModel();
  const offline = useNeedsNetwork();
  const blocked = offline ?? modelNameProblem(values.name);
  const errors = fieldErrors(create.error);
  const existing = existingModelId(create.error);
  const otherErrors = create.error
    ? Object.keys(errors).length
      ? Object.entries(errors)
          .filter(([attr]) => attr !== 'name' && attr !== 'description')
          .flatMap(([, messages]) => messages)
      : [errorMessage(create.error)]
    : [];

  const submit = () => {
    if (blocked) return;
    create.mutate(
      { name: cleanModelName(values.name), description: values.description },
      { onSuccess: onCreated },
    );
  };

  return (
    <Modal
      title="Create a model"
      onClose={onClose}
      pending={create.isPending}
      onSubmit={submit}
      footer={
        <SubmitActions
          label="Create"
          pending={create.isPending}
          onCancel={onClose}
          blocked={blocked}
        />
      }
    >
      <OfflineNote action="create a model" />
      <ModelFields values={values} onChange={setValues} errors={errors} />
      {existing && (
        <p className="text-sm">
          <Link to="/model/$modelId" params={{ modelId: existing }} className={ui.link}>
            Open the existing model
          </Link>
        </p>
      )}
      <ErrorList messages={otherErrors} />
    </Modal>
  );
}
