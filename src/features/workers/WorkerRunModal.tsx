/**
 * Worker run details (spec 001 §2 "Modals"): the run, its worker and version, model, run
 * configuration and process, so a user sees what produced a result; the footer links to the
 * model version, worker version and process pages.
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { api } from '@/api/client';
import { errorMessage } from '@/api/errors';
import { Modal } from '@/components/modal/Modal';
import { ui } from '@/components/styles';
import { formatSize } from '@/lib/formatSize';
import { CloseAction } from '@/components/modal/ModalActions';

export interface WorkerRunDetails {
  id: string;
  summary: string;
  worker_version: {
    id: string;
    worker: {
      id: string;
      name: string;
      slug: string;
      type: string;
      repository_url?: string | null;
    };
    revision: { hash: string } | null;
    version: number | null;
    created?: string;
  };
  configuration: { id: string; name: string; configuration: unknown; archived?: boolean } | null;
  model_version: {
    id: string;
    model: { id: string; name: string };
    tag: string | null;
    state?: string;
    size?: number | null;
    configuration: unknown;
  } | null;
  process: { id: string; name: string | null; state?: string };
}

export const workerRunQuery = (id: string) => ({
  queryKey: ['worker-run', id] as const,
  queryFn: () => api<WorkerRunDetails>(`/process/workers/${id}/`),
  staleTime: Infinity,
});

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid grid-cols-3 gap-2">
      <dt className="font-medium text-slate-600">{label}</dt>
      <dd className="col-span-2 break-all text-slate-900">{children}</dd>
    </div>
  );
}

function Configuration({ value }: { value: unknown }) {
  return (
    <details>
      <summary className="cursor-pointer text-brand-700">Configuration</summary>
      <pre className="mt-1 max-h-48 overflow-auto rounded bg-slate-50 p-2 text-xs">
        {JSON.stringify(value, null, 2)}
      </pre>
    </details>
  );
}

export function WorkerRunModal({ id, onClose }: { id: string; onClose: () => void }) {
  const run = useQuery(workerRunQuery(id));
  const data = run.data;
  const version = data?.worker_version;
  return (
    <Modal
      title="Worker run details"
      size="lg"
      onClose={onClose}
      footer={
        <>
          {data?.model_version && (
            <Link
              to="/model-version/$versionId"
              params={{ versionId: data.model_version.id }}
              className={ui.secondaryButton}
            >
              Model version
            </Link>
          )}
          {version && (
            <Link
              to="/process/worker-version/$versionId"
              params={{ versionId: version.id }}
              className={ui.secondaryButton}
            >
              Worker version
            </Link>
          )}
          {data && (
            <Link
              to="/process/$id/{-$selectedRun}"
              params={{ id: data.process.id, selectedRun: undefined }}
              className={ui.secondaryButton}
            >
              Process
            </Link>
          )}
          <CloseAction onClose={onClose} />
        </>
      }
    >
      {run.isPending ? (
        <p role="status" className="flex items-center gap-2">
          <span className="size-4 animate-spin rounded-full border-2 border-slate-300 border-t-brand-600" />
          Loading…
        </p>
      ) : run.isError ? (
        <p role="alert" className="text-red-700">
          Failed to load worker run {id}: {errorMessage(run.error)}
        </p>
      ) : (
        <dl className="flex flex-col gap-4 text-sm">
          <Row label="Worker run ID">{data!.id}</Row>
          <section className="flex flex-col gap-1">
            <h3 className="font-semibold text-slate-900">Worker</h3>
            <Row label="Name">{version!.worker.name}</Row>
            <Row label="Revision">
              {version!.revision ? (
                version!.worker.repository_url ? (
                  <a
                    className={ui.link}
                    href={`${version!.worker.repository_url}/commit/${version!.revision.hash}`}
                    target="_blank"
                    rel="noopener noreferrer"
                  >
                    {version!.revision.hash}
                  </a>
                ) : (
                  version!.revision.hash
                )
              ) : (
                `Version ${String(version!.version ?? '—')}`
              )}
            </Row>
            <Row label="Version ID">{version!.id}</Row>
            {version!.created && (
              <Row label="Version created">{new Date(version!.created).toLocaleString()}</Row>
            )}
            <Row label="Worker ID">{version!.worker.id}</Row>
          </section>
          <section className="flex flex-col gap-1">
            <h3 className="font-semibold text-slate-900">Model</h3>
            {data!.model_version ? (
              <>
                <Row label="Name">{data!.model_version.model.name}</Row>
                {data!.model_version.state && <Row label="State">{data!.model_version.state}</Row>}
                {data!.model_version.size != null && (
                  <Row label="Size">{formatSize(data!.model_version.size)}</Row>
                )}
                <Row label="Version ID">{data!.model_version.id}</Row>
                {data!.model_version.tag && <Row label="Tag">{data!.model_version.tag}</Row>}
                <Row label="Model ID">{data!.model_version.model.id}</Row>
                <Configuration value={data!.model_version.configuration} />
              </>
            ) : (
              <p className="text-slate-500">No model.</p>
            )}
          </section>
          <section className="flex flex-col gap-1">
            <h3 className="font-semibold text-slate-900">Run configuration</h3>
            {data!.configuration ? (
              <>
                <Row label="Name">{data!.configuration.name}</Row>
                <Configuration value={data!.configuration.configuration} />
                <Row label="ID">{data!.configuration.id}</Row>
                <Row label="Archived">{data!.configuration.archived ? 'Yes' : 'No'}</Row>
              </>
            ) : (
              <p className="text-slate-500">No configuration.</p>
            )}
          </section>
          <section className="flex flex-col gap-1">
            <h3 className="font-semibold text-slate-900">Process</h3>
            <Row label="Name">{data!.process.name ?? '—'}</Row>
            {data!.process.state && <Row label="State">{data!.process.state}</Row>}
            <Row label="ID">{data!.process.id}</Row>
          </section>
        </dl>
      )}
    </Modal>
  );
}
