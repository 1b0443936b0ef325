/**
 * A worker (spec 000 §2 /process/workers/{workerId}): what it is, its versions, and its
 * configurations with the editor, whose fields come from its newest version that has some.
 */
import { useQuery } from '@tanstack/react-query';
import {
  latestWorkerVersionsQuery,
  schemaVersionOf,
  workerQuery,
  workerTypesQuery,
} from '@/api/workers';
import { errorMessage } from '@/api/errors';
import { PageMessage } from '@/components/PageMessage';
import { useErrorNotification } from '@/components/notifications/useErrorNotification';
import { ui } from '@/components/styles';
import { useDocumentTitle } from '@/lib/documentTitle';
import { useListErrorNotification } from './listErrors';
import { useElementTypes } from './useElementTypes';
import { WorkerConfigurationsSection } from './WorkerConfigurationsSection';
import { WorkerTypeBadge } from './WorkerTypeBadge';
import { WorkerVersionsSection } from './WorkerVersionsSection';

export function WorkerPage({
  workerId,
  corpusId,
  openConfigurationId,
  onOpenConfiguration,
}: {
  workerId: string;
  corpusId: string | null;
  openConfigurationId: string | null;
  onOpenConfiguration: (id: string | null) => void;
}) {
  const worker = useQuery(workerQuery(workerId));
  const types = useQuery(workerTypesQuery);
  const latest = useQuery(latestWorkerVersionsQuery(workerId));
  const elementTypes = useElementTypes(corpusId);
  useErrorNotification(worker.error);
  useListErrorNotification(types.error);
  useDocumentTitle([worker.data?.name]);

  if (worker.isPending)
    return (
      <PageMessage width="max-w-4xl" loading>
        Loading…
      </PageMessage>
    );
  if (worker.isError)
    return (
      <PageMessage width="max-w-4xl">
        The worker could not be loaded: {errorMessage(worker.error)}
      </PageMessage>
    );
  const data = worker.data;
  const schemaVersion = schemaVersionOf(latest.data?.results ?? []);

  return (
    <div className="mx-auto max-w-4xl space-y-4 p-6">
      <header className="space-y-2">
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-semibold text-brand-900">{data.name}</h1>
          <WorkerTypeBadge slug={data.type} types={types.data?.results} />
          {data.archived && <span className="text-sm text-slate-500">Archived</span>}
        </div>
        <p className="font-mono text-sm text-slate-600">{data.slug}</p>
        {data.repository_url && (
          <a
            href={data.repository_url}
            target="_blank"
            rel="noopener noreferrer"
            className={`${ui.link} text-sm`}
          >
            {data.repository_url}
          </a>
        )}
        {data.description && <p className="text-slate-700">{data.description}</p>}
      </header>
      <WorkerVersionsSection workerId={workerId} workerName={data.name} />
      {latest.isPending ? (
        <p role="status" className="text-slate-600">
          Loading…
        </p>
      ) : (
        <WorkerConfigurationsSection
          worker={data}
          version={schemaVersion}
          elementTypes={elementTypes}
          openId={openConfigurationId}
          onOpenId={onOpenConfiguration}
        />
      )}
    </div>
  );
}
