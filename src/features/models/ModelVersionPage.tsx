import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import {
  canWriteModel,
  modelQuery,
  modelVersionDownloadUrl,
  modelVersionQuery,
  type ModelVersion,
} from '@/api/models';
import { PageMessage } from '@/components/PageMessage';
import { MarkdownContent } from '@/components/MarkdownContent';
import { useErrorNotification } from '@/components/notifications/useErrorNotification';
import { ui } from '@/components/styles';
import { useDocumentTitle } from '@/lib/documentTitle';
import { formatSize } from '@/lib/formatSize';
import { ModelVersionEditor } from './ModelVersionEditor';
import { ModelVersionState } from './ModelVersionState';

/** One model version (spec 000 §2 model-version): what it is, and its archive to download. */
export function ModelVersionPage({ versionId }: { versionId: string }) {
  const version = useQuery(modelVersionQuery(versionId));
  useErrorNotification(version.error);
  if (version.isPending) {
    return (
      <PageMessage width="max-w-4xl" loading>
        Loading…
      </PageMessage>
    );
  }
  if (version.isError) {
    return <PageMessage width="max-w-4xl">The model version could not be loaded.</PageMessage>;
  }
  return <VersionView version={version.data} />;
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 py-2 sm:grid-cols-4">
      <dt className="font-medium text-slate-600">{label}</dt>
      <dd className="break-all text-slate-900 sm:col-span-3">{children}</dd>
    </div>
  );
}

function VersionView({ version }: { version: ModelVersion }) {
  const name = version.tag ?? version.id.slice(0, 8);
  useDocumentTitle([`${version.model.name} ${name}`]);
  const hasConfiguration = Object.keys(version.configuration ?? {}).length > 0;
  // The version does not say what the user may do: its model does.
  const model = useQuery(modelQuery(version.model.id));
  const canEdit = !!model.data && canWriteModel(model.data);
  return (
    <section aria-labelledby="version-heading" className="mx-auto max-w-4xl space-y-6 p-6">
      <header className="space-y-1">
        <p className="text-sm">
          <Link to="/models" className={ui.link}>
            Models
          </Link>{' '}
          ›{' '}
          <Link to="/model/$modelId" params={{ modelId: version.model.id }} className={ui.link}>
            {version.model.name}
          </Link>
        </p>
        <h1 id="version-heading" className="text-2xl font-semibold break-words text-brand-900">
          Model version {name}
        </h1>
      </header>
      <div className={`${ui.card} p-6`}>
        <dl className="divide-y divide-slate-100 text-sm">
          <Row label="Tag">{version.tag ?? '—'}</Row>
          <Row label="State">
            <ModelVersionState state={version.state} />
          </Row>
          <Row label="Size">{version.size == null ? '—' : formatSize(version.size)}</Row>
          <Row label="Hash">
            <span className="font-mono text-xs">{version.hash ?? '—'}</span>
          </Row>
          <Row label="Created">{new Date(version.created).toLocaleString()}</Row>
          <Row label="ID">
            <span className="font-mono text-xs">{version.id}</span>
          </Row>
        </dl>
        {version.state === 'available' && (
          <a
            href={version.s3_url ?? modelVersionDownloadUrl(version.id)}
            className={`${ui.primaryButton} mt-4`}
            download
          >
            Download
          </a>
        )}
      </div>
      <section aria-labelledby="description-heading" className={`${ui.card} space-y-2 p-6`}>
        <h2 id="description-heading" className="text-lg font-semibold text-slate-900">
          Description
        </h2>
        {version.description ? (
          <MarkdownContent source={version.description} />
        ) : (
          <p className="text-slate-600">No description.</p>
        )}
      </section>
      <section aria-labelledby="configuration-heading" className={`${ui.card} space-y-2 p-6`}>
        <h2 id="configuration-heading" className="text-lg font-semibold text-slate-900">
          Configuration
        </h2>
        {hasConfiguration ? (
          <pre className="max-h-96 overflow-auto rounded bg-slate-50 p-3 text-xs">
            {JSON.stringify(version.configuration, null, 2)}
          </pre>
        ) : (
          <p className="text-slate-600">No configuration.</p>
        )}
      </section>
      {canEdit && <ModelVersionEditor key={version.updated} version={version} />}
    </section>
  );
}
