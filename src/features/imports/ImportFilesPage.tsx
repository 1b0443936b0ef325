import { useCallback, useId, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { corpusQuery } from '@/api/corpora';
import { dataFileKeys, importFromFiles, type DataFile } from '@/api/dataFiles';
import { elementQuery } from '@/api/elements';
import { fieldErrors } from '@/api/errors';
import { jobKeys, type JobDetail } from '@/api/jobs';
import type { Corpus, Element } from '@/api/types';
import { currentUserQuery, isVerified } from '@/api/user';
import { OfflineNote, useNeedsNetwork } from '@/components/NeedsNetwork';
import { PageMessage } from '@/components/PageMessage';
import { ProjectPageHeader } from '@/components/ProjectPageHeader';
import { notifyError } from '@/components/notifications/store';
import { useErrorNotification } from '@/components/notifications/useErrorNotification';
import { DataFileTable } from './DataFileTable';
import { DropZone } from './DropZone';
import { ImportJobView } from './ImportJobView';
import { ui } from './styles';
import { UploadList } from './UploadList';
import { useUploadQueue } from './useUploadQueue';

export const NEED_CONTRIBUTOR = 'You must have a contributor access to this project';
export const NEED_VERIFIED = 'Your email address should be verified';
export const FOLDER_ELSEWHERE = 'This folder is not in this project.';

export interface ImportFilesPageProps {
  corpusId: string;
  /** The folder to import into; none: a new folder at the top level of the project. */
  folderId?: string | null;
  /** How often a running import is read (1 s: an import of a few pages takes seconds). */
  pollMs?: number;
}

/**
 * The import screen (/process/files/{corpusId}/{folderId?}): upload scans and their PAGE or
 * ALTO files or IIIF manifests, choose among the project's uploaded files, import them into a
 * folder, and follow the import to its report.
 */
export function ImportFilesPage({
  corpusId,
  folderId = null,
  pollMs = 1000,
}: ImportFilesPageProps) {
  const corpus = useQuery(corpusQuery(corpusId));
  const folder = useQuery({ ...elementQuery(folderId ?? ''), enabled: !!folderId });
  useErrorNotification(corpus.error ?? folder.error);

  if (corpus.isPending || (folderId && folder.isPending)) {
    return (
      <PageMessage width="max-w-4xl" loading>
        Loading…
      </PageMessage>
    );
  }
  if (corpus.isError || (folderId && folder.isError)) {
    return (
      <PageMessage width="max-w-4xl">
        {corpus.isError ? 'The project could not be loaded.' : 'The folder could not be loaded.'}
      </PageMessage>
    );
  }
  return (
    <ImportScreen
      key={corpus.data.id}
      corpus={corpus.data}
      folder={folder.data ?? null}
      pollMs={pollMs}
    />
  );
}

function ImportScreen({
  corpus,
  folder,
  pollMs,
}: {
  corpus: Corpus;
  folder: Element | null;
  pollMs: number;
}) {
  const queryClient = useQueryClient();
  const { data: user = null } = useQuery(currentUserQuery);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [started, setStarted] = useState<{ jobId: string; fileIds: string[] } | null>(null);

  const wrongFolder = !!folder && folder.corpus.id !== corpus.id;
  const blocked = !corpus.rights.includes('write')
    ? NEED_CONTRIBUTOR
    : !isVerified(user)
      ? NEED_VERIFIED
      : wrongFolder
        ? FOLDER_ELSEWHERE
        : null;
  // Uploads and imports happen on the server: offline they wait, saying so.
  const offline = !!useNeedsNetwork();

  const select = useCallback((ids: string[], on: boolean) => {
    setSelected((previous) => {
      const next = new Set(previous);
      for (const id of ids) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    });
  }, []);
  // What was just uploaded is what the user most likely wants to import.
  const onUploaded = useCallback((file: DataFile) => select([file.id], true), [select]);
  const queue = useUploadQueue(corpus.id, onUploaded);

  return (
    <section className="mx-auto max-w-4xl space-y-6 p-6" aria-labelledby="import-page-heading">
      <ProjectPageHeader
        corpus={corpus}
        folder={folder}
        title={`Import files into ${folder ? folder.name : corpus.name}`}
        headingId="import-page-heading"
      />
      {blocked && (
        <p
          role="alert"
          className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-amber-900"
        >
          {blocked.endsWith('.') ? blocked : `${blocked}.`}
        </p>
      )}
      {!blocked && !started && <OfflineNote action="upload and import files" />}
      {started ? (
        <ImportJobView
          jobId={started.jobId}
          fileIds={started.fileIds}
          corpusId={corpus.id}
          pollMs={pollMs}
          onDone={() => setStarted(null)}
        />
      ) : (
        <>
          <DropZone disabled={!!blocked || offline} onFiles={queue.add} />
          <UploadList queue={queue} />
          <DataFileTable
            corpusId={corpus.id}
            canWrite={!blocked && !offline}
            selected={selected}
            onSelect={select}
          />
          <ImportForm
            corpus={corpus}
            folder={folder}
            selected={selected}
            disabled={!!blocked || offline}
            onStarted={(job) => {
              queryClient.setQueryData(jobKeys.detail(job.id), job);
              void queryClient.invalidateQueries({ queryKey: dataFileKeys.corpus(corpus.id) });
              setStarted({ jobId: job.id, fileIds: [...selected] });
              setSelected(new Set());
            }}
          />
        </>
      )}
    </section>
  );
}

function ImportForm({
  corpus,
  folder,
  selected,
  disabled,
  onStarted,
}: {
  corpus: Corpus;
  folder: Element | null;
  selected: ReadonlySet<string>;
  disabled: boolean;
  onStarted: (job: JobDetail) => void;
}) {
  const [folderName, setFolderName] = useState('');
  const nameId = useId();
  const start = useMutation({
    mutationFn: () =>
      importFromFiles({
        files: [...selected],
        ...(folder
          ? { folder_id: folder.id }
          : folderName.trim()
            ? { folder_name: folderName.trim() }
            : {}),
      }),
    onSuccess: (process) => onStarted(process.job),
    onError: (error) => notifyError(error),
  });
  const errors = start.error ? fieldErrors(start.error) : {};
  const count = selected.size;

  return (
    <section aria-labelledby="import-form-heading" className={ui.card}>
      <h2 id="import-form-heading" className="text-lg font-semibold text-slate-900">
        Import
      </h2>
      <form
        className="mt-3 space-y-4"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (!disabled && count > 0 && !start.isPending) start.mutate();
        }}
      >
        {folder ? (
          <p className="text-sm text-slate-600">
            The selected files are imported into the folder{' '}
            <strong className="text-slate-800">{folder.name}</strong>.
          </p>
        ) : (
          <div>
            <label htmlFor={nameId} className={ui.label}>
              Folder name
            </label>
            <input
              id={nameId}
              type="text"
              className={ui.input}
              value={folderName}
              maxLength={250}
              placeholder="Import <date and time>"
              disabled={disabled}
              aria-invalid={!!errors.folder_name || undefined}
              aria-describedby={`${nameId}-help`}
              onChange={(event) => setFolderName(event.target.value)}
            />
            <p id={`${nameId}-help`} className={ui.help}>
              The imported pages go into a new folder with this name at the top level of{' '}
              {corpus.name}. Left empty, the folder is named after the date and time.
            </p>
            {errors.folder_name && <p className={ui.error}>{errors.folder_name.join(' ')}</p>}
          </div>
        )}
        {start.error && !errors.folder_name && <p className={ui.error}>{start.error.message}</p>}
        <div className="flex items-center gap-3">
          <button
            type="submit"
            className={ui.primaryButton}
            disabled={disabled || count === 0 || start.isPending}
          >
            {start.isPending
              ? 'Starting the import…'
              : count === 0
                ? 'Import'
                : `Import ${count} file${count === 1 ? '' : 's'}`}
          </button>
          {count === 0 && !disabled && (
            <p className="text-sm text-slate-500">Upload or select the files to import.</p>
          )}
        </div>
      </form>
    </section>
  );
}
