import { useStore } from '@/lib/store';
import { formatSize } from '@/lib/formatSize';
import { ProgressBar } from '@/components/ProgressBar';
import { ui } from './styles';
import { summarize, type UploadItem, type UploadQueue } from './uploadQueue';

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** The files being uploaded from this screen: one progress bar each, and one for them all. */
export function UploadList({ queue }: { queue: UploadQueue }) {
  const items = useStore(queue.store);
  if (items.length === 0) return null;
  const summary = summarize(items);
  const overall = summary.bytes > 0 ? summary.loaded / summary.bytes : 0;
  const status =
    summary.active > 0
      ? `Uploading: ${summary.done} of ${plural(summary.total, 'file')} uploaded`
      : `${summary.done} of ${plural(summary.total, 'file')} uploaded`;

  return (
    <section aria-labelledby="uploads-heading" className={ui.card}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="uploads-heading" className="text-lg font-semibold text-slate-900">
          Uploads
        </h2>
        {summary.done > 0 && (
          <button type="button" className={ui.smallButton} onClick={queue.clearFinished}>
            Clear uploaded
          </button>
        )}
      </div>
      {summary.total > 0 && (
        <div className="mt-3 space-y-1">
          <p className="flex justify-between text-sm text-slate-600" aria-live="polite">
            <span>
              {status}
              {summary.failed > 0 && `, ${summary.failed} failed`}
            </span>
            <span>
              {formatSize(summary.loaded)} / {formatSize(summary.bytes)}
            </span>
          </p>
          <ProgressBar
            label="Overall upload progress"
            value={overall}
            tone={summary.active === 0 && summary.failed === 0 ? 'success' : 'brand'}
          />
        </div>
      )}
      <ul aria-label="Files being uploaded" className="mt-4 divide-y divide-slate-100">
        {items.map((item) => (
          <UploadRow key={item.key} item={item} queue={queue} />
        ))}
      </ul>
    </section>
  );
}

function stateText(item: UploadItem): string {
  switch (item.state) {
    case 'waiting':
      return 'Waiting';
    case 'uploading':
      return `Uploading… ${Math.round((item.loaded / Math.max(1, item.file.size)) * 100)}%`;
    case 'done':
      return 'Uploaded';
    case 'error':
      return 'Failed';
  }
}

function UploadRow({ item, queue }: { item: UploadItem; queue: UploadQueue }) {
  const name = item.file.name;
  const running = item.state === 'waiting' || item.state === 'uploading';
  return (
    <li className="py-2" aria-label={name}>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
        <span className="min-w-0 flex-1 truncate font-medium text-slate-800" title={name}>
          {name}
        </span>
        <span className="text-slate-500">{formatSize(item.file.size)}</span>
        <span
          className={
            item.state === 'error'
              ? 'text-red-700'
              : item.state === 'done'
                ? 'text-emerald-700'
                : 'text-slate-600'
          }
        >
          {stateText(item)}
        </span>
        {item.state === 'error' && item.retryable && (
          <button
            type="button"
            className={ui.smallButton}
            aria-label={`Retry ${name}`}
            onClick={() => queue.retry(item.key)}
          >
            Retry
          </button>
        )}
        <button
          type="button"
          className={ui.smallButton}
          aria-label={running ? `Cancel ${name}` : `Remove ${name} from the uploads`}
          onClick={() => queue.remove(item.key)}
        >
          {running ? 'Cancel' : 'Remove'}
        </button>
      </div>
      {item.state !== 'error' && (
        <div className="mt-1">
          <ProgressBar
            label={`Upload of ${name}`}
            value={item.state === 'waiting' ? 0 : item.loaded / Math.max(1, item.file.size)}
            tone={item.state === 'done' ? 'success' : 'brand'}
            size="sm"
          />
        </div>
      )}
      {item.error && <p className={`mt-1 ${ui.error}`}>{item.error}</p>}
    </li>
  );
}
