import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { errorMessage, fieldErrors } from '@/api/errors';
import { deleteModelVersion, modelKeys, updateModelVersion, type ModelVersion } from '@/api/models';
import { GuardedButton } from '@/components/GuardedButton';
import { useNeedsNetwork } from '@/components/NeedsNetwork';
import { ConfirmDialog } from '@/components/modal/ConfirmDialog';
import { ErrorList } from '@/components/modal/ErrorList';
import { notify, notifyError } from '@/components/notifications/store';
import { ui } from '@/components/styles';

export const CONFIGURATION_NOT_AN_OBJECT = 'The configuration must be a JSON object.';

/** The configuration as typed: a JSON object, or the reason it is not one. */
export function parseVersionConfiguration(
  text: string,
): { value: Record<string, unknown> } | { error: string } {
  if (!text.trim()) return { value: {} };
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value))
      return { value: value as Record<string, unknown> };
  } catch {
    // Reported below, as for any value that is not an object.
  }
  return { error: CONFIGURATION_NOT_AN_OBJECT };
}

/** A version's tag, description and configuration, changed by the model's contributors; and its deletion. */
export function ModelVersionEditor({ version }: { version: ModelVersion }) {
  const id = useId();
  const [tag, setTag] = useState(version.tag ?? '');
  const [description, setDescription] = useState(version.description ?? '');
  const [configuration, setConfiguration] = useState(
    JSON.stringify(version.configuration ?? {}, null, 2),
  );
  const [confirming, setConfirming] = useState(false);
  const offline = useNeedsNetwork();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const parsed = parseVersionConfiguration(configuration);
  const save = useMutation({
    mutationFn: () =>
      updateModelVersion(version.id, {
        tag: tag.trim() || null,
        description,
        configuration: 'value' in parsed ? parsed.value : {},
      }),
    onSuccess: async (saved) => {
      queryClient.setQueryData(modelKeys.version(saved.id), saved);
      notify({ type: 'success', text: 'The model version has been updated.' });
      await queryClient.invalidateQueries({ queryKey: modelKeys.all });
    },
  });
  const removal = useMutation({
    mutationFn: () => deleteModelVersion(version.id),
    onSuccess: async () => {
      notify({ type: 'success', text: 'The model version has been deleted.' });
      await navigate({ to: '/model/$modelId', params: { modelId: version.model.id } });
      queryClient.removeQueries({ queryKey: modelKeys.version(version.id) });
      await queryClient.invalidateQueries({ queryKey: modelKeys.all });
    },
    onError: (error) => {
      setConfirming(false);
      notifyError(error);
    },
  });
  const errors = fieldErrors(save.error);
  const configurationError = 'error' in parsed ? parsed.error : errors.configuration?.join(' ');
  const otherErrors = save.error
    ? Object.keys(errors).length
      ? Object.entries(errors)
          .filter(([attr]) => !['tag', 'description', 'configuration'].includes(attr))
          .flatMap(([, messages]) => messages)
      : [errorMessage(save.error)]
    : [];
  const blocked = offline ?? ('error' in parsed ? parsed.error : null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!blocked && !save.isPending) save.mutate();
  };

  const field = (name: string, messages: string | undefined) =>
    messages ? (
      <p id={`${id}-${name}-error`} className={ui.fieldError}>
        {messages}
      </p>
    ) : null;

  return (
    <section aria-labelledby={`${id}-heading`} className={`${ui.card} space-y-4 p-6`}>
      <h2 id={`${id}-heading`} className="text-lg font-semibold text-slate-900">
        Edit this version
      </h2>
      <form noValidate onSubmit={submit} className="space-y-4">
        <div>
          <label htmlFor={`${id}-tag`} className={ui.label}>
            Tag
          </label>
          <input
            id={`${id}-tag`}
            type="text"
            value={tag}
            maxLength={50}
            autoComplete="off"
            aria-invalid={errors.tag ? true : undefined}
            onChange={(event) => setTag(event.target.value)}
            className={ui.input}
          />
          {field('tag', errors.tag?.join(' '))}
        </div>
        <div>
          <label htmlFor={`${id}-description`} className={ui.label}>
            Description
          </label>
          <textarea
            id={`${id}-description`}
            rows={3}
            value={description}
            onChange={(event) => setDescription(event.target.value)}
            className={ui.input}
          />
          {field('description', errors.description?.join(' '))}
        </div>
        <div>
          <label htmlFor={`${id}-configuration`} className={ui.label}>
            Configuration (JSON)
          </label>
          <textarea
            id={`${id}-configuration`}
            rows={6}
            spellCheck={false}
            value={configuration}
            aria-invalid={configurationError ? true : undefined}
            aria-describedby={configurationError ? `${id}-configuration-error` : undefined}
            onChange={(event) => setConfiguration(event.target.value)}
            className={`${ui.input} font-mono`}
          />
          {field('configuration', configurationError)}
        </div>
        <ErrorList messages={otherErrors} />
        <div className="flex flex-wrap items-center justify-between gap-2">
          <button
            type="submit"
            className={ui.primaryButton}
            disabled={!!blocked || save.isPending}
            title={blocked ?? undefined}
          >
            {save.isPending ? 'Please wait…' : 'Save'}
          </button>
          <GuardedButton
            blocked={offline}
            className={ui.dangerOutlineButton}
            onClick={() => setConfirming(true)}
          >
            Delete this version
          </GuardedButton>
        </div>
      </form>
      <ConfirmDialog
        open={confirming}
        title="Delete this version"
        confirmLabel="Delete"
        pending={removal.isPending}
        onConfirm={() => removal.mutate()}
        onClose={() => setConfirming(false)}
      >
        The version and its archive will be deleted for everyone.
      </ConfirmDialog>
    </section>
  );
}
