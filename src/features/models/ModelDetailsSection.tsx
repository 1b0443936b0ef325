import { useState, type FormEvent } from 'react';
import { errorMessage, fieldErrors } from '@/api/errors';
import { canAdminModel, type Model } from '@/api/models';
import { GuardedButton } from '@/components/GuardedButton';
import { useNeedsNetwork } from '@/components/NeedsNetwork';
import { ErrorList } from '@/components/modal/ErrorList';
import { notify, notifyError } from '@/components/notifications/store';
import { ui } from '@/components/styles';
import { useUpdateModel } from './api';
import { ModelFields, type ModelFieldValues } from './ModelFields';
import { cleanModelName, modelNameProblem } from './modelText';

/**
 * A model's name and description, editable by its contributors with the rules of creation;
 * its admins also archive it and make it public or private. Guests read the same fields, disabled.
 */
export function ModelDetailsSection({ model, canEdit }: { model: Model; canEdit: boolean }) {
  const [values, setValues] = useState<ModelFieldValues>({
    name: model.name,
    description: model.description ?? '',
  });
  const update = useUpdateModel(model.id);
  // Archiving and publishing are saved at once, apart from the name and description being typed.
  const flags = useUpdateModel(model.id);
  const toggle = (patch: { archived: boolean } | { public: boolean }) =>
    flags.mutate(patch, {
      onSuccess: (saved) =>
        notify({
          type: 'success',
          text:
            'archived' in patch
              ? `Model "${saved.name}" has been ${saved.archived ? 'archived' : 'unarchived'}.`
              : `Model "${saved.name}" is now ${saved.public ? 'public' : 'private'}.`,
        }),
      onError: (error) => notifyError(error),
    });
  const offline = useNeedsNetwork();
  const blocked = offline ?? modelNameProblem(values.name);
  const errors = fieldErrors(update.error);
  const unchanged =
    cleanModelName(values.name) === model.name && values.description === (model.description ?? '');
  const otherErrors = update.error
    ? Object.keys(errors).length
      ? Object.entries(errors)
          .filter(([attr]) => attr !== 'name' && attr !== 'description')
          .flatMap(([, messages]) => messages)
      : [errorMessage(update.error)]
    : [];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (blocked || !canEdit) return;
    update.mutate(
      { name: cleanModelName(values.name), description: values.description },
      {
        onSuccess: (saved) => {
          setValues({ name: saved.name, description: saved.description ?? '' });
          notify({ type: 'success', text: `Model "${saved.name}" has been updated.` });
        },
      },
    );
  };

  return (
    <section aria-labelledby="details-heading" className={`${ui.card} space-y-4 p-6`}>
      <h2 id="details-heading" className="text-lg font-semibold text-slate-900">
        Details
      </h2>
      <form noValidate onSubmit={submit} className="space-y-4">
        <ModelFields values={values} onChange={setValues} errors={errors} disabled={!canEdit} />
        <ErrorList messages={otherErrors} />
        {canEdit && (
          <div className="flex flex-wrap items-center justify-between gap-2">
            <button
              type="submit"
              className={ui.primaryButton}
              disabled={!!blocked || unchanged || update.isPending}
              title={blocked ?? undefined}
            >
              {update.isPending ? 'Please wait…' : 'Update'}
            </button>
            {canAdminModel(model) && (
              <div className="flex flex-wrap gap-2">
                <GuardedButton
                  blocked={offline}
                  disabled={flags.isPending}
                  className={ui.secondaryButton}
                  onClick={() => toggle({ public: !model.public })}
                >
                  {model.public ? 'Make private' : 'Make public'}
                </GuardedButton>
                <GuardedButton
                  blocked={offline}
                  disabled={flags.isPending}
                  className={model.archived ? ui.secondaryButton : ui.dangerOutlineButton}
                  onClick={() => toggle({ archived: !model.archived })}
                >
                  {model.archived ? 'Unarchive' : 'Archive'}
                </GuardedButton>
              </div>
            )}
          </div>
        )}
      </form>
    </section>
  );
}
