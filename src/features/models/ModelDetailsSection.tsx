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
 * its admins also archive it. Guests read the same fields, disabled.
 */
export function ModelDetailsSection({ model, canEdit }: { model: Model; canEdit: boolean }) {
  const [values, setValues] = useState<ModelFieldValues>({
    name: model.name,
    description: model.description ?? '',
  });
  const update = useUpdateModel(model.id);
  const archive = useUpdateModel(model.id);
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
              <GuardedButton
                blocked={offline}
                disabled={archive.isPending}
                className={model.archived ? ui.secondaryButton : ui.dangerOutlineButton}
                onClick={() =>
                  archive.mutate(
                    { archived: !model.archived },
                    {
                      onSuccess: (saved) =>
                        notify({
                          type: 'success',
                          text: saved.archived
                            ? `Model "${saved.name}" has been archived.`
                            : `Model "${saved.name}" has been unarchived.`,
                        }),
                      onError: (error) => notifyError(error),
                    },
                  )
                }
              >
                {model.archived ? 'Unarchive' : 'Archive'}
              </GuardedButton>
            )}
          </div>
        )}
      </form>
    </section>
  );
}
