import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { dataFileKeys, type DataFile } from '@/api/dataFiles';
import { useStore } from '@/lib/store';
import { createUploadQueue, summarize, type UploadQueue } from './uploadQueue';

/** The list of uploaded files is refreshed at most this often while a batch uploads. */
const LIST_REFRESH_MS = 2000;

/**
 * The screen's upload queue: one per project, aborted when the screen goes away. Each stored
 * file is reported to `onUploaded` and refreshes the project's file list (at most every 2 s,
 * and once more when the batch ends). Leaving the page mid-upload asks the browser to confirm.
 */
export function useUploadQueue(
  corpusId: string,
  onUploaded: (file: DataFile) => void,
): UploadQueue {
  const queryClient = useQueryClient();
  const callback = useRef(onUploaded);
  useEffect(() => {
    callback.current = onUploaded;
  }, [onUploaded]);

  const [queue] = useState(() => {
    let lastRefresh = 0;
    let pending: ReturnType<typeof setTimeout> | null = null;
    const refresh = () => {
      lastRefresh = Date.now();
      pending = null;
      void queryClient.invalidateQueries({ queryKey: dataFileKeys.corpus(corpusId) });
    };
    const queue = createUploadQueue({
      corpusId,
      onUploaded: (file) => {
        callback.current(file);
        // The end of a batch shows at once; during one, the list follows every 2 s.
        if (summarize(queue.store.get()).active === 0) {
          if (pending) clearTimeout(pending);
          refresh();
          return;
        }
        if (pending) return;
        const wait = Math.max(0, lastRefresh + LIST_REFRESH_MS - Date.now());
        if (wait === 0) refresh();
        else pending = setTimeout(refresh, wait);
      },
    });
    return queue;
  });
  useEffect(() => {
    queue.activate();
    return () => queue.dispose();
  }, [queue]);

  const items = useStore(queue.store);
  const uploading = summarize(items).active > 0;
  useEffect(() => {
    if (!uploading) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [uploading]);
  return queue;
}
