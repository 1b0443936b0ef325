import { useId, useMemo, useState } from 'react';
import type { Element } from '@/api/types';
import { GuardedButton } from '@/components/GuardedButton';
import { NEEDS_NETWORK } from '@/components/NeedsNetwork';
import { Modal } from '@/components/modal/Modal';
import { ProgressBar } from '@/components/ProgressBar';
import { ui } from '@/components/styles';
import { formatSize } from '@/lib/formatSize';
import { estimatePack, type PackProgress, type PackResult, type PackZoom } from '@/offline/packs';
import { useConnectivity } from '@/offline/runtime';
import { StoragePanel } from './StoragePanel';
import { screenEdge, usePackDownload, type DownloadState } from './usePackDownload';
import { CloseAction } from '@/components/modal/ModalActions';

export const ZOOM_CHOICES: { value: PackZoom; label: string }[] = [
  { value: 'thumbnail', label: 'Thumbnails only' },
  { value: 'screen', label: 'Screen size' },
  { value: 'full', label: 'Full resolution' },
];

export interface MakeOfflineDialogProps {
  element: Element;
  onClose: () => void;
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString('en')} ${count === 1 ? one : many}`;
}

/**
 * "Make available offline": what will be downloaded and its size, then a progress bar with a
 * Cancel button, and the storage this device gives the app with the packs already kept.
 */
export function MakeOfflineDialog({ element, onClose }: MakeOfflineDialogProps) {
  const { online } = useConnectivity();
  const { state, start, cancel, retryPlan } = usePackDownload(element, online);
  const [zoom, setZoom] = useState<PackZoom>('screen');
  const zoomId = useId();
  const plan = 'plan' in state ? state.plan : null;
  const estimate = useMemo(() => plan && estimatePack(plan, zoom, screenEdge()), [plan, zoom]);
  const running = state.step === 'running';
  const blocked = !online ? NEEDS_NETWORK : !plan ? 'Checking what to download…' : null;

  return (
    <Modal
      title="Make available offline"
      onClose={onClose}
      pending={running}
      size="lg"
      footer={
        running ? (
          <button type="button" className={ui.secondaryButton} onClick={cancel}>
            Cancel
          </button>
        ) : (
          <>
            <CloseAction onClose={onClose} />
            <GuardedButton
              className={ui.primaryButton}
              blocked={blocked}
              onClick={() => plan && void start(plan, zoom)}
            >
              {state.step === 'finished' ? 'Download again' : 'Download'}
            </GuardedButton>
          </>
        )
      }
    >
      <p>
        Download <strong>{element.name}</strong> and everything in it to this device, to open it
        without the network.
      </p>
      <div>
        <label htmlFor={zoomId} className={ui.label}>
          Image detail
        </label>
        <select
          id={zoomId}
          className={ui.input}
          value={zoom}
          disabled={running}
          onChange={(event) => setZoom(event.target.value as PackZoom)}
        >
          {ZOOM_CHOICES.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
      </div>
      <section aria-label="What will be downloaded" aria-live="polite">
        <DownloadStatus state={state} estimate={estimate} onRetry={retryPlan} />
        {!online && state.step !== 'offline' && !running && (
          <p className="mt-1 text-amber-800">
            You are offline. Connect to the network to download.
          </p>
        )}
      </section>
      <StoragePanel refreshKey={state.step} />
    </Modal>
  );
}

function DownloadStatus({
  state,
  estimate,
  onRetry,
}: {
  state: DownloadState;
  estimate: ReturnType<typeof estimatePack> | null;
  onRetry: () => void;
}) {
  switch (state.step) {
    case 'offline':
      return <p>You are offline. Connect to the network to see what would be downloaded.</p>;
    case 'planning':
      return <p role="status">{planningText(state.progress)}</p>;
    case 'plan-failed':
      return (
        <p role="alert" className="text-red-700">
          Could not check what to download: {state.message}{' '}
          <button type="button" className={ui.link} onClick={onRetry}>
            Try again
          </button>
        </p>
      );
    case 'ready':
      return estimate ? (
        <p data-testid="pack-estimate">
          {plural(estimate.elements, 'element')}, {plural(estimate.images, 'image')} (
          {plural(estimate.tiles, 'tile')}): about <strong>{formatSize(estimate.bytes)}</strong>.
        </p>
      ) : null;
    case 'running':
      return <RunProgress progress={state.progress} />;
    case 'finished':
      return <ResultText result={state.result} />;
    case 'run-failed':
      return (
        <p role="alert" className="text-red-700">
          The download stopped: {state.message}
        </p>
      );
  }
}

function planningText(progress: PackProgress | null): string {
  if (progress?.phase === 'images') {
    return `Checking what to download… images ${progress.done} of ${progress.total}`;
  }
  if (progress?.phase === 'listing' && progress.total !== null) {
    return `Checking what to download… elements ${progress.done} of ${progress.total}`;
  }
  return 'Checking what to download…';
}

function RunProgress({ progress }: { progress: PackProgress | null }) {
  const label =
    progress?.phase === 'images'
      ? `Images: ${progress.done} of ${progress.total}`
      : progress?.phase === 'elements'
        ? `Elements: ${progress.done} of ${progress.total}`
        : 'Starting…';
  const value = progress && progress.total ? progress.done / progress.total : null;
  return (
    <div className="flex flex-col gap-1">
      <p role="status">
        {label}
        {progress && 'bytes' in progress && ` · ${formatSize(progress.bytes)}`}
      </p>
      <ProgressBar label="Download progress" value={value} />
    </div>
  );
}

function ResultText({ result }: { result: PackResult }) {
  const { pack, failed, unreachable } = result;
  const what = `${plural(pack.elementCount, 'element')} and ${plural(pack.tileCount, 'tile')}, ${formatSize(pack.bytes)}`;
  if (pack.status === 'cancelled') {
    return (
      <p role="status">
        Cancelled. What was downloaded stays on this device ({what}). Download again to finish.
      </p>
    );
  }
  if (unreachable) {
    return (
      <p role="alert" className="text-amber-800">
        The network went away. What was downloaded stays on this device ({what}). Download again to
        finish.
      </p>
    );
  }
  if (failed > 0) {
    return (
      <p role="alert" className="text-amber-800">
        Available offline, except {plural(failed, 'file')} the server did not send ({what}).
      </p>
    );
  }
  return <p role="status">Available offline: {what}.</p>;
}
