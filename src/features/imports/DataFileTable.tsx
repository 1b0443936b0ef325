import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DATA_FILE_PAGE_SIZE,
  dataFileKeys,
  dataFilesQuery,
  deleteDataFile,
  type DataFile,
  type DataFileStatus,
} from '@/api/dataFiles';
import { ConfirmDialog } from '@/components/modal/ConfirmDialog';
import { notify, notifyError } from '@/components/notifications/store';
import { useErrorNotification } from '@/components/notifications/useErrorNotification';
import { PaginationBar } from '@/components/PaginationBar';
import { relativeTime } from '@/lib/relativeTime';
import { formatSize } from '@/lib/formatSize';
import { ui } from './styles';

const STATUS_TEXT: Record<DataFileStatus, string> = {
  checked: 'Ready',
  unchecked: 'Not uploaded',
  error: 'Error',
};

const COLUMNS = ['Name', 'Size', 'Status', 'Uploaded'];

export interface DataFileTableProps {
  corpusId: string;
  canWrite: boolean;
  selected: ReadonlySet<string>;
  onSelect: (ids: string[], selected: boolean) => void;
}

/** The project's uploaded files: pick the ones to import, or delete the ones not needed. */
export function DataFileTable({ corpusId, canWrite, selected, onSelect }: DataFileTableProps) {
  const [page, setPage] = useState(1);
  const files = useQuery(dataFilesQuery(corpusId, page));
  const [deleting, setDeleting] = useState<DataFile | null>(null);
  const { data } = files;
  useErrorNotification(files.error);
  // A deletion may empty the last page: go back to the one before.
  useEffect(() => {
    if (data && data.results.length === 0 && page > 1) setPage(page - 1);
  }, [data, page]);

  const rows = data?.results ?? [];
  const selectable = rows.filter((file) => file.status === 'checked');
  const allSelected = selectable.length > 0 && selectable.every((file) => selected.has(file.id));

  return (
    <section aria-labelledby="files-heading" className={ui.card}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="files-heading" className="text-lg font-semibold text-slate-900">
          Uploaded files
        </h2>
        {data && <p className="text-sm text-slate-500">{selected.size} selected</p>}
      </div>
      {files.isPending ? (
        <p className="mt-3 text-sm text-slate-600">Loading…</p>
      ) : files.isError ? (
        <p className="mt-3 text-sm text-red-700">The uploaded files could not be loaded.</p>
      ) : rows.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600">
          No file has been uploaded to this project yet.
        </p>
      ) : (
        <div className="mt-3 overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead className="border-b border-slate-200 text-xs text-slate-500 uppercase">
              <tr>
                <th scope="col" className="w-8 py-2">
                  <input
                    type="checkbox"
                    className={ui.checkbox}
                    aria-label="Select all the files of this page"
                    checked={allSelected}
                    disabled={!canWrite || selectable.length === 0}
                    onChange={(event) =>
                      onSelect(
                        selectable.map((file) => file.id),
                        event.target.checked,
                      )
                    }
                  />
                </th>
                {COLUMNS.map((column) => (
                  <th key={column} scope="col" className="py-2">
                    {column}
                  </th>
                ))}
                <th scope="col" className="py-2">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {rows.map((file) => (
                <tr key={file.id}>
                  <td className="py-1.5">
                    <input
                      type="checkbox"
                      className={ui.checkbox}
                      aria-label={`Select ${file.name}`}
                      checked={selected.has(file.id)}
                      disabled={!canWrite || file.status !== 'checked'}
                      onChange={(event) => onSelect([file.id], event.target.checked)}
                    />
                  </td>
                  <td className="max-w-xs truncate py-1.5 font-medium text-slate-800">
                    {file.name}
                  </td>
                  <td className="py-1.5 whitespace-nowrap text-slate-600">
                    {formatSize(file.size)}
                  </td>
                  <td
                    className={`py-1.5 whitespace-nowrap ${file.status === 'checked' ? 'text-emerald-700' : 'text-amber-700'}`}
                  >
                    {STATUS_TEXT[file.status] ?? file.status}
                  </td>
                  <td className="py-1.5 whitespace-nowrap text-slate-500">
                    {file.created ? relativeTime(file.created) : ''}
                  </td>
                  <td className="py-1.5 text-right">
                    <button
                      type="button"
                      className={ui.smallButton}
                      aria-label={`Delete ${file.name}`}
                      disabled={!canWrite}
                      onClick={() => setDeleting(file)}
                    >
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {data && data.count > DATA_FILE_PAGE_SIZE && (
        <div className="mt-3">
          <PaginationBar
            count={data.count}
            page={page}
            pageSize={DATA_FILE_PAGE_SIZE}
            singular="file"
            onPageChange={setPage}
            showJump={false}
            label="Uploaded files pages"
          />
        </div>
      )}
      {deleting && (
        <DeleteFileDialog
          file={deleting}
          corpusId={corpusId}
          onDeleted={() => onSelect([deleting.id], false)}
          onClose={() => setDeleting(null)}
        />
      )}
    </section>
  );
}

function DeleteFileDialog({
  file,
  corpusId,
  onDeleted,
  onClose,
}: {
  file: DataFile;
  corpusId: string;
  onDeleted: () => void;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => deleteDataFile(file.id),
    onSuccess: () => {
      onDeleted();
      notify({ type: 'success', text: `The file "${file.name}" has been deleted.` });
      onClose();
    },
    onError: (error) => notifyError(error),
    onSettled: () => queryClient.invalidateQueries({ queryKey: dataFileKeys.corpus(corpusId) }),
  });
  return (
    <ConfirmDialog
      open
      title="Delete file"
      confirmLabel="Delete"
      pending={remove.isPending}
      onConfirm={() => remove.mutate()}
      onClose={onClose}
    >
      <p>
        Delete the uploaded file <strong className="break-all">{file.name}</strong>? What was
        already imported from it stays in the project.
      </p>
    </ConfirmDialog>
  );
}
