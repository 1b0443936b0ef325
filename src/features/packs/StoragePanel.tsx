import { useCallback, useEffect, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { errorMessage } from '@/api/errors';
import { ProgressBar } from '@/components/ProgressBar';
import { ui } from '@/components/styles';
import { formatSize } from '@/lib/formatSize';
import { localDb, type PackRow } from '@/offline/db';
import {
  askPersistentStorage,
  readStorage,
  removePack,
  type StorageFigures,
} from '@/offline/packs';
import { useLiveQuery } from '@/offline/useLiveQuery';
import { PackExportMenu } from './PackExportMenu';

const ZOOM_NAMES: Record<PackRow['zoom'], string> = {
  thumbnail: 'thumbnails',
  screen: 'screen size',
  full: 'full resolution',
};

function useStorageFigures(refreshKey: unknown) {
  const [figures, setFigures] = useState<StorageFigures | null>(null);
  const refresh = useCallback(() => {
    void readStorage().then(setFigures);
  }, []);
  useEffect(refresh, [refresh, refreshKey]);
  return { figures, setFigures, refresh };
}

/** Usage and quota of this site's storage, persistence, and the packs kept on this device. */
export function StoragePanel({ refreshKey }: { refreshKey?: unknown }) {
  const { figures, setFigures, refresh } = useStorageFigures(refreshKey);
  const [refused, setRefused] = useState(false);
  const packs = useLiveQuery(
    () => localDb.packs.orderBy('createdAt').reverse().toArray(),
    [],
    [] as PackRow[],
  );

  const keep = async () => {
    const granted = await askPersistentStorage();
    setRefused(!granted);
    if (figures) setFigures({ ...figures, persisted: granted });
  };

  return (
    <section
      aria-labelledby="storage-heading"
      className="flex flex-col gap-3 border-t border-slate-200 pt-4"
    >
      <h3 id="storage-heading" className="font-semibold text-slate-900">
        On this device
      </h3>
      {figures?.usage != null && figures.quota ? (
        <div className="flex flex-col gap-1">
          <p data-testid="storage-usage">
            {formatSize(figures.usage)} used of {formatSize(figures.quota)} available to this app
          </p>
          <ProgressBar label="Storage used" value={figures.usage / figures.quota} size="sm" />
        </div>
      ) : (
        figures && <p>This browser does not tell how much space is used.</p>
      )}
      {figures && figures.persisted !== null && (
        <div className="flex flex-wrap items-center gap-2">
          <p data-testid="storage-persistence">
            {figures.persisted
              ? 'Kept until you remove it: the browser will not clear it to free space.'
              : 'The browser may clear this data when space runs low.'}
          </p>
          {!figures.persisted && (
            <button type="button" className={ui.secondaryButton} onClick={() => void keep()}>
              Keep data on this device
            </button>
          )}
          {refused && !figures.persisted && (
            <p role="alert" className="text-amber-800">
              The browser did not allow it. Installing the app or bookmarking it may help.
            </p>
          )}
        </div>
      )}
      <PackList packs={packs} onRemoved={refresh} />
    </section>
  );
}

function PackList({ packs, onRemoved }: { packs: PackRow[]; onRemoved: () => void }) {
  if (packs.length === 0) return <p>Nothing is made available offline yet.</p>;
  return (
    <ul aria-label="Available offline" className="flex flex-col divide-y divide-slate-200">
      {packs.map((pack) => (
        <PackItem key={pack.id} pack={pack} onRemoved={onRemoved} />
      ))}
    </ul>
  );
}

function PackItem({ pack, onRemoved }: { pack: PackRow; onRemoved: () => void }) {
  const [removing, setRemoving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const remove = async () => {
    setRemoving(true);
    setError(null);
    try {
      await removePack(localDb, globalThis.caches, pack.id);
      onRemoved();
    } catch (failure) {
      setError(errorMessage(failure));
      setRemoving(false);
    }
  };
  const date = new Date(pack.createdAt).toLocaleString([], {
    dateStyle: 'medium',
    timeStyle: 'short',
  });
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 py-2">
      <div className="min-w-0">
        <Link to="/element/$id" params={{ id: pack.id }} className={ui.link}>
          {pack.name}
        </Link>
        {pack.status !== 'complete' && (
          <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs text-amber-900">
            {pack.status === 'cancelled' ? 'Cancelled, incomplete' : 'Incomplete'}
          </span>
        )}
        <p className="text-xs text-slate-500">
          {formatSize(pack.bytes)} · {pack.elementCount.toLocaleString('en')} elements ·{' '}
          {ZOOM_NAMES[pack.zoom]} · {date}
        </p>
        {error && (
          <p role="alert" className="text-red-700">
            Could not remove it: {error}
          </p>
        )}
      </div>
      <div className="flex items-center gap-2">
        <PackExportMenu pack={pack} />
        <button
          type="button"
          className={ui.dangerOutlineButton}
          onClick={() => void remove()}
          disabled={removing}
          aria-label={`Remove ${pack.name}`}
        >
          {removing ? 'Removing…' : 'Remove'}
        </button>
      </div>
    </li>
  );
}
