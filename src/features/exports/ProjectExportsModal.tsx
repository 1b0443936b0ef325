/**
 * Spec 001 §2 "Project exports": the project's SQLite exports, ten a page, newest first, with
 * their state, who started them, a download once done and a delete while done or running; and
 * the start of a new one. The list asks again while an export is being made, so a started
 * export shows running, then done, without the user reloading.
 */
import { useId, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  canDeleteExport,
  canDownloadExport,
  exportDownloadUrl,
  exportKeys,
  exportSourcesQuery,
  exportsQuery,
  startExport,
  EXPORTS_PAGE_SIZE,
  type CorpusExport,
} from '@/api/exports';
import { errorMessage } from '@/api/errors';
import { serverInfoQuery } from '@/api/serverInfo';
import type { Corpus } from '@/api/types';
import { currentUserQuery, isVerified } from '@/api/user';
import { GuardedButton } from '@/components/GuardedButton';
import { ListTable } from '@/components/ListTable';
import { ErrorList } from '@/components/modal/ErrorList';
import { Modal } from '@/components/modal/Modal';
import { CloseAction } from '@/components/modal/ModalActions';
import { useNeedsNetwork } from '@/components/NeedsNetwork';
import { PaginationBar } from '@/components/PaginationBar';
import { ui } from '@/components/styles';
import { RIGHT_MESSAGES, grantsRight } from '@/lib/rights';
import { relativeTime } from '@/lib/relativeTime';
import { DeleteExportDialog } from './DeleteExportDialog';
import { ExportStateBadge } from './ExportStateBadge';

export const PROJECT_EXPORTS_TITLE = 'Project exports';
/** Spec 001 §8, word for word. */
export const NO_EXPORTS = 'No exports to display.';
/** Spec 001 §5 "Start export", word for word. */
export const START_EXPORT_NEEDS_WRITE = 'Contributor access is required to start a project export.';
export const START_EXPORT = 'Start export';
/** Not in the spec's words: the list could not be read. */
export const EXPORTS_FETCH_ERROR = 'An error occurred while listing the exports';
export const EXPORT_STARTED = 'The export has been started.';

export interface ProjectExportsModalProps {
  corpus: Corpus;
  onClose: () => void;
  /** How often the list is read again while an export is being made; tests shorten it. */
  pollMs?: number;
}

export function ProjectExportsModal({ corpus, onClose, pollMs }: ProjectExportsModalProps) {
  const [page, setPage] = useState(1);
  const exports = useQuery(exportsQuery(corpus.id, page, pollMs));
  const { data: user = null } = useQuery(currentUserQuery);
  const { data: info } = useQuery(serverInfoQuery);
  // Spec 001 §6: the source choice and column are for verified users of the enterprise edition.
  const withSource = !!info?.features.enterprise && isVerified(user);
  const [deleting, setDeleting] = useState<CorpusExport | null>(null);
  // The server lets the project's admins and the export's starter delete it (else a 403).
  const isAdmin = grantsRight(corpus.rights, 'admin');
  const deleteBlocked = (item: CorpusExport) =>
    isAdmin || item.user.id === user?.id ? null : RIGHT_MESSAGES.admin;

  return (
    <Modal
      title={PROJECT_EXPORTS_TITLE}
      size="lg"
      onClose={onClose}
      footer={<CloseAction onClose={onClose} />}
    >
      <StartExportForm corpus={corpus} withSource={withSource} onStarted={() => setPage(1)} />
      {exports.isPending ? (
        <p role="status" className="text-slate-600">
          Loading…
        </p>
      ) : exports.isError ? (
        <p role="alert" className="text-red-700">
          {EXPORTS_FETCH_ERROR}: {errorMessage(exports.error)}
        </p>
      ) : exports.data.count === 0 ? (
        <p className="text-slate-600">{NO_EXPORTS}</p>
      ) : (
        <>
          <ListTable
            caption={`Exports of ${corpus.name}`}
            columns={['Date', 'State', 'User', ...(withSource ? ['Source'] : [])]}
            last="Actions"
          >
            {exports.data.results.map((item) => (
              <ExportRow
                key={item.id}
                item={item}
                withSource={withSource}
                deleteBlocked={deleteBlocked(item)}
                onDelete={() => setDeleting(item)}
              />
            ))}
          </ListTable>
          <PaginationBar
            count={exports.data.count}
            page={page}
            pageSize={EXPORTS_PAGE_SIZE}
            singular="export"
            onPageChange={setPage}
            label="Exports pages"
          />
        </>
      )}
      {deleting && <DeleteExportDialog item={deleting} onClose={() => setDeleting(null)} />}
    </Modal>
  );
}

function ExportRow({
  item,
  withSource,
  deleteBlocked,
  onDelete,
}: {
  item: CorpusExport;
  withSource: boolean;
  deleteBlocked: string | null;
  onDelete: () => void;
}) {
  return (
    <tr data-export-id={item.id}>
      <td className="py-2 pr-4 whitespace-nowrap">
        <span title={item.updated}>{relativeTime(item.updated)}</span>
      </td>
      <td className="py-2 pr-4">
        <ExportStateBadge state={item.state} />
      </td>
      <td className="py-2 pr-4">{item.user.display_name}</td>
      {withSource && <td className="py-2 pr-4">{item.source}</td>}
      <td className="py-2">
        <div className="flex justify-end gap-2">
          {canDownloadExport(item) && (
            <a href={exportDownloadUrl(item.id)} download className={ui.secondaryButton}>
              Download
            </a>
          )}
          {canDeleteExport(item) && (
            <GuardedButton
              blocked={deleteBlocked}
              className={ui.dangerOutlineButton}
              onClick={onDelete}
            >
              Delete
            </GuardedButton>
          )}
        </div>
      </td>
    </tr>
  );
}

/** The start, with the source choice when the edition offers sources; contributors only. */
function StartExportForm({
  corpus,
  withSource,
  onStarted,
}: {
  corpus: Corpus;
  withSource: boolean;
  onStarted: () => void;
}) {
  const id = useId();
  const queryClient = useQueryClient();
  const offline = useNeedsNetwork();
  const sources = useQuery({ ...exportSourcesQuery, enabled: withSource });
  const [source, setSource] = useState('default');
  const start = useMutation({
    mutationFn: () => startExport(corpus.id, withSource ? source : undefined),
    onSuccess: async () => {
      onStarted();
      await queryClient.invalidateQueries({ queryKey: exportKeys.corpus(corpus.id) });
    },
  });
  const canWrite = grantsRight(corpus.rights, 'write');
  const blocked = canWrite ? offline : START_EXPORT_NEEDS_WRITE;
  const sourceNames = sources.data?.map((item) => item.name) ?? ['default'];

  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-end gap-3">
        {withSource && (
          <div className="min-w-40">
            <label htmlFor={`${id}-source`} className={ui.label}>
              Source
            </label>
            <select
              id={`${id}-source`}
              className={ui.input}
              value={source}
              disabled={!canWrite || start.isPending}
              onChange={(event) => setSource(event.target.value)}
            >
              {sourceNames.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </div>
        )}
        <GuardedButton
          blocked={blocked}
          className={ui.primaryButton}
          disabled={start.isPending}
          onClick={() => start.mutate()}
        >
          {start.isPending ? 'Please wait…' : START_EXPORT}
        </GuardedButton>
      </div>
      {start.isError && <ErrorList messages={[errorMessage(start.error)]} />}
      {start.isSuccess && (
        <p role="status" className="text-sm text-emerald-700">
          {EXPORT_STARTED}
        </p>
      )}
    </div>
  );
}
