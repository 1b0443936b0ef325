import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { canAdminModel, canWriteModel, modelQuery, type Model } from '@/api/models';
import { OfflineNote } from '@/components/NeedsNetwork';
import { PageMessage } from '@/components/PageMessage';
import { ui } from '@/components/styles';
import { useDocumentTitle } from '@/lib/documentTitle';
import { CompatibleWorkersSection } from './CompatibleWorkersSection';
import { ModelDetailsSection } from './ModelDetailsSection';
import { ModelMembersSection } from './ModelMembersSection';
import { ModelVersionsSection } from './ModelVersionsSection';
import { MODEL_WRITE_REQUIRED, retrievingModelFailed } from './modelText';
import { useNotifiedError } from './useNotifiedError';

/** One model (spec 000 §2 /model/{modelId}): details, versions, compatible workers. */
export function ModelPage({ modelId }: { modelId: string }) {
  const model = useQuery(modelQuery(modelId));
  useNotifiedError(model.error, (error) => retrievingModelFailed(modelId, error));
  if (model.isPending) {
    return (
      <PageMessage width="max-w-4xl" loading>
        Loading…
      </PageMessage>
    );
  }
  if (model.isError) {
    return <PageMessage width="max-w-4xl">The model could not be loaded.</PageMessage>;
  }
  return <ModelView model={model.data} />;
}

function ModelView({ model }: { model: Model }) {
  useDocumentTitle([model.name]);
  const canEdit = canWriteModel(model);
  return (
    <section aria-labelledby="model-heading" className="mx-auto max-w-4xl space-y-6 p-6">
      <header className="space-y-1">
        <p className="text-sm">
          <Link to="/models" className={ui.link}>
            Models
          </Link>
        </p>
        <h1 id="model-heading" className="text-2xl font-semibold break-words text-brand-900">
          {model.name}
        </h1>
        <p className="text-sm text-slate-600">
          {model.public ? 'Public' : 'Private'}
          {model.archived && ' · Archived'} · <span className="font-mono">{model.id}</span>
        </p>
      </header>
      {canEdit ? (
        <OfflineNote action="change this model" />
      ) : (
        <p
          role="note"
          className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-amber-900"
        >
          {MODEL_WRITE_REQUIRED}
        </p>
      )}
      <ModelDetailsSection key={model.id} model={model} canEdit={canEdit} />
      <ModelVersionsSection modelId={model.id} canEdit={canEdit} />
      <CompatibleWorkersSection model={model} canEdit={canEdit} />
      {canAdminModel(model) && <ModelMembersSection model={model} />}
    </section>
  );
}
