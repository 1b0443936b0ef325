import { useId, useState } from 'react';
import { errorMessage, fieldErrors } from '@/api/errors';
import { SECRET_NAME_MAX_LENGTH, type SecretSummary } from '@/api/secrets';
import { OfflineNote, useNeedsNetwork } from '@/components/NeedsNetwork';
import { ErrorList } from '@/components/modal/ErrorList';
import { Modal } from '@/components/modal/Modal';
import { SubmitActions } from '@/components/modal/ModalActions';
import { ui } from '@/components/styles';
import { useCreateSecret } from './api';
import { secretNameProblem } from './secretName';

/** "Add a secret": a path-like name and its value, typed once and never shown back. */
export function AddSecretModal({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated: (secret: SecretSummary) => void;
}) {
  const id = useId();
  const [name, setName] = useState('');
  const [content, setContent] = useState('');
  const create = useCreateSecret();
  const offline = useNeedsNetwork();
  const typed = name.trim();
  const problem = typed ? secretNameProblem(typed) : null;
  const blocked = offline ?? (typed ? problem : 'A name is required.');
  const errors = fieldErrors(create.error);
  const nameErrors = problem ? [problem] : (errors.name ?? []);
  const otherErrors = create.error
    ? Object.keys(errors).length
      ? Object.entries(errors)
          .filter(([attr]) => attr !== 'name' && attr !== 'content')
          .flatMap(([, messages]) => messages)
      : [errorMessage(create.error)]
    : [];

  const submit = () => {
    if (blocked) return;
    create.mutate({ name: typed, content }, { onSuccess: onCreated });
  };

  return (
    <Modal
      title="Add a secret"
      onClose={onClose}
      pending={create.isPending}
      onSubmit={submit}
      footer={
        <SubmitActions
          label="Add"
          pending={create.isPending}
          onCancel={onClose}
          blocked={blocked}
        />
      }
    >
      <OfflineNote action="add a secret" />
      <div>
        <label htmlFor={`${id}-name`} className={ui.label}>
          Name
        </label>
        <input
          id={`${id}-name`}
          type="text"
          required
          maxLength={SECRET_NAME_MAX_LENGTH}
          placeholder="ocr/service/key"
          value={name}
          autoComplete="off"
          spellCheck={false}
          aria-invalid={nameErrors.length ? true : undefined}
          aria-describedby={nameErrors.length ? `${id}-name-error` : undefined}
          onChange={(event) => setName(event.target.value)}
          className={ui.input}
        />
        {nameErrors.length > 0 && (
          <p id={`${id}-name-error`} className={ui.fieldError}>
            {nameErrors.join(' ')}
          </p>
        )}
      </div>
      <div>
        <label htmlFor={`${id}-content`} className={ui.label}>
          Value
        </label>
        <textarea
          id={`${id}-content`}
          rows={4}
          value={content}
          autoComplete="off"
          spellCheck={false}
          aria-invalid={errors.content ? true : undefined}
          aria-describedby={errors.content ? `${id}-content-error` : undefined}
          onChange={(event) => setContent(event.target.value)}
          className={`${ui.input} font-mono`}
        />
        {errors.content && (
          <p id={`${id}-content-error`} className={ui.fieldError}>
            {errors.content.join(' ')}
          </p>
        )}
      </div>
      <ErrorList messages={otherErrors} />
    </Modal>
  );
}
