/**
 * A worker version (spec 000 §2 worker-version): its details, its configuration fields, and
 * the configurations of its worker, new ones filling this version's fields.
 */
import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { workerVersionQuery, workerTypesQuery } from '@/api/workers';
import { errorMessage } from '@/api/errors';
import { PageMessage } from '@/components/PageMessage';
import { useErrorNotification } from '@/components/notifications/useErrorNotification';
import { ui } from '@/components/styles';
import { useDocumentTitle } from '@/lib/documentTitle';
import { versionLabel } from './configuration/ConfigurationEditor';
import { useListErrorNotification } from './listErrors';
import { MakeAvailableButton } from './publish/MakeAvailableButton';
import { RunLocallyButton } from './RunLocallyButton';
import { useElementTypes } from './useElementTypes';
import { WorkerConfigurationsSection } from './WorkerConfigurationsSection';
import { WorkerTypeBadge } from './WorkerTypeBadge';
import { WorkerVersionFields } from './WorkerVersionFields';
import { WorkerVersionName, WorkerVersionStateBadge } from './WorkerVersionLabel';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-3 gap-2 py-1">
      <dt className="font-medium text-slate-600">{label}</dt>
      <dd className="col-span-2 break-all text-slate-900">{children}</dd>
    </div>
  );
}

export function WorkerVersionPage({
  versionId,
  corpusId,
  openConfigurationId,
  onOpenConfiguration,
}: {
  versionId: string;
  corpusId: string | null;
  openConfigurationId: string | null;
  onOpenConfiguration: (id: string | null) => void;
}) {
  const version = useQuery(workerVersionQuery(versionId));
  const types = useQuery(workerTypesQuery);
  const elementTypes = useElementTypes(corpusId);
  useErrorNotification(version.error);
  useListErrorNotification(types.error);
  useDocumentTitle([
    version.data ? `${version.data.worker.name} ${versionLabel(version.data)}` : null,
  ]);

  if (version.isPending)
    return (
      <PageMessage width="max-w-4xl" loading>
        Loading…
      </PageMessage>
    );
  if (version.isError)
    return (
      <PageMessage width="max-w-4xl">
        The worker version could not be loaded: {errorMessage(version.error)}
      </PageMessage>
    );
  const data = version.data;
  const hasSchema = !!data.configuration?.user_configuration;

  return (
    <div className="mx-auto max-w-4xl space-y-4 p-6">
      <header className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold text-brand-900">
          {data.worker.name} <WorkerVersionName version={data} />
        </h1>
        <WorkerVersionStateBadge state={data.state} />
        <div className="ml-auto flex flex-wrap gap-2">
          <MakeAvailableButton version={data} />
          <RunLocallyButton versionId={data.id} />
        </div>
      </header>
      <section aria-labelledby="details-heading" className={ui.card}>
        <h2 id="details-heading" className="mb-2 text-lg font-semibold text-slate-900">
          Details
        </h2>
        <dl className="text-sm">
          <Row label="Worker">
            <Link
              to="/process/workers/$workerId"
              params={{ workerId: data.worker.id }}
              search={{}}
              className={ui.link}
            >
              {data.worker.name}
            </Link>{' '}
            <WorkerTypeBadge slug={data.worker.type} types={types.data?.results} />
          </Row>
          <Row label="Version">{data.version ?? '—'}</Row>
          <Row label="Revision">
            {data.revision_url ? (
              <a
                href={data.revision_url}
                target="_blank"
                rel="noopener noreferrer"
                className={ui.link}
              >
                {data.revision_url}
              </a>
            ) : (
              '—'
            )}
          </Row>
          <Row label="Tag">{data.tag ?? '—'}</Row>
          <Row label="Branch">{data.branch ?? '—'}</Row>
          <Row label="GPU usage">{data.gpu_usage}</Row>
          <Row label="Model usage">{data.model_usage}</Row>
          <Row label="Docker image">{data.docker_image_iid ?? '—'}</Row>
          {data.feature && <Row label="Feature">{data.feature}</Row>}
          <Row label="Created">{new Date(data.created).toLocaleString()}</Row>
          <Row label="ID">{data.id}</Row>
        </dl>
      </section>
      <WorkerVersionFields versionId={data.id} />
      <WorkerConfigurationsSection
        worker={data.worker}
        version={hasSchema ? data : null}
        elementTypes={elementTypes}
        openId={openConfigurationId}
        onOpenId={onOpenConfiguration}
      />
    </div>
  );
}
