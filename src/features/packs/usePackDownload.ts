import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { rememberCorpus } from '@/api/corpora';
import { errorMessage } from '@/api/errors';
import type { Element } from '@/api/types';
import { thumbnailUrl } from '@/components/ElementCard';
import { localDb } from '@/offline/db';
import {
  isAbort,
  planPack,
  runPack,
  type PackPlan,
  type PackProgress,
  type PackResult,
  type PackZoom,
} from '@/offline/packs';

export type DownloadState =
  | { step: 'offline' }
  | { step: 'planning'; progress: PackProgress | null }
  | { step: 'plan-failed'; message: string }
  | { step: 'ready'; plan: PackPlan }
  | { step: 'running'; plan: PackPlan; progress: PackProgress | null }
  | { step: 'finished'; plan: PackPlan; result: PackResult }
  | { step: 'run-failed'; plan: PackPlan; message: string };

/** Longer side of this screen in device pixels: what "screen size" downloads. */
export function screenEdge(): number {
  const screen = globalThis.screen;
  const edge =
    Math.max(screen?.width ?? 0, screen?.height ?? 0) * (globalThis.devicePixelRatio || 1);
  return Math.min(4096, Math.max(1024, Math.round(edge)));
}

/**
 * Plans a pack for `element` as soon as the network is there, then runs it on demand; cancel
 * stops the run (or the planning) and keeps what was stored.
 */
export function usePackDownload(element: Element, online: boolean) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<DownloadState>(
    online ? { step: 'planning', progress: null } : { step: 'offline' },
  );
  const controller = useRef<AbortController | null>(null);
  const [attempt, setAttempt] = useState(0);

  const planned = ['ready', 'running', 'finished', 'run-failed'].includes(state.step);
  useEffect(() => {
    if (planned) return;
    if (!online) {
      setState({ step: 'offline' });
      return;
    }
    const abort = new AbortController();
    setState({ step: 'planning', progress: null });
    planPack(element, {
      signal: abort.signal,
      onProgress: (progress) => setState({ step: 'planning', progress }),
      thumbnailOf: (item) => thumbnailUrl(item),
    }).then(
      (plan) => setState({ step: 'ready', plan }),
      (error: unknown) => {
        if (!isAbort(error)) setState({ step: 'plan-failed', message: errorMessage(error) });
      },
    );
    return () => abort.abort();
    // Planned once per element; again when the network returns or on retry.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [element.id, online, attempt]);

  const start = useCallback(
    async (plan: PackPlan, zoom: PackZoom) => {
      const abort = new AbortController();
      controller.current = abort;
      setState({ step: 'running', plan, progress: null });
      try {
        const result = await runPack(plan, zoom, {
          db: localDb,
          caches: globalThis.caches,
          signal: abort.signal,
          screenEdge: screenEdge(),
          onProgress: (progress) => setState({ step: 'running', plan, progress }),
          onCorpus: (corpus) => rememberCorpus(queryClient, corpus),
        });
        setState({ step: 'finished', plan, result });
      } catch (error) {
        setState({ step: 'run-failed', plan, message: errorMessage(error) });
      } finally {
        controller.current = null;
      }
    },
    [queryClient],
  );

  const cancel = useCallback(() => controller.current?.abort(), []);
  const retryPlan = useCallback(() => {
    setState({ step: 'planning', progress: null });
    setAttempt((n) => n + 1);
  }, []);
  // Closing the dialog mid-run stops the run: the pack is then marked cancelled.
  useEffect(() => () => controller.current?.abort(), []);

  return { state, start, cancel, retryPlan };
}
