/**
 * The uploads of one import screen, outside React: each file is declared (POST
 * /process/files/create/), then its content is PUT with progress. A few run at once; a failed
 * one keeps the server's message and can be tried again; a cancelled one is forgotten.
 */
import {
  createDataFile,
  deleteDataFile,
  uploadDataFile,
  type DataFile,
  type DataFileCreate,
  type UploadOptions,
} from '@/api/dataFiles';
import { errorMessage } from '@/api/errors';
import { createStore, type Store } from '@/lib/store';
import { contentTypeOf, rejectionReason } from './fileTypes';

export type UploadState = 'waiting' | 'uploading' | 'done' | 'error';

export interface UploadItem {
  key: string;
  file: File;
  state: UploadState;
  /** Bytes sent so far. */
  loaded: number;
  error: string | null;
  /** False for files refused before any upload (wrong type, empty): trying again is no use. */
  retryable: boolean;
  /** The declared file, once the server has answered the creation. */
  dataFile: DataFile | null;
}

export interface UploadApi {
  create(input: DataFileCreate): Promise<DataFile>;
  upload(url: string, content: Blob, options: UploadOptions): Promise<DataFile>;
  remove(id: string): Promise<void>;
}

const defaultApi: UploadApi = {
  create: createDataFile,
  upload: uploadDataFile,
  remove: deleteDataFile,
};

export interface UploadQueueOptions {
  corpusId: string;
  /** Uploads running at once: enough to fill a link, few enough to show progress one by one. */
  concurrency?: number;
  /** Called once for each file whose content is stored. */
  onUploaded?: (file: DataFile) => void;
  api?: UploadApi;
}

export interface UploadSummary {
  /** Files of the current batch (all but the ones refused before upload). */
  total: number;
  done: number;
  failed: number;
  active: number;
  loaded: number;
  bytes: number;
}

export interface UploadQueue {
  store: Store<UploadItem[]>;
  add(files: Iterable<File>): void;
  retry(key: string): void;
  /** Stops an upload (and deletes its declared file) or forgets a finished or failed row. */
  remove(key: string): void;
  /** Forgets the finished rows; the uploaded files stay listed in the project's files. */
  clearFinished(): void;
  /** Aborts what is running and starts nothing more (the screen goes away). */
  dispose(): void;
  /** Starts uploads again after dispose() (React runs effects twice in development). */
  activate(): void;
}

export function summarize(items: readonly UploadItem[]): UploadSummary {
  const batch = items.filter((item) => item.retryable || item.state !== 'error');
  return {
    total: batch.length,
    done: batch.filter((item) => item.state === 'done').length,
    failed: batch.filter((item) => item.state === 'error').length,
    active: batch.filter((item) => item.state === 'uploading' || item.state === 'waiting').length,
    loaded: batch.reduce((sum, item) => sum + item.loaded, 0),
    bytes: batch.reduce((sum, item) => sum + item.file.size, 0),
  };
}

let nextKey = 1;

export function createUploadQueue(options: UploadQueueOptions): UploadQueue {
  const api = options.api ?? defaultApi;
  const concurrency = options.concurrency ?? 3;
  const store = createStore<UploadItem[]>([]);
  const controllers = new Map<string, AbortController>();
  let disposed = false;

  const update = (key: string, changes: Partial<UploadItem>) =>
    store.set((items) => items.map((item) => (item.key === key ? { ...item, ...changes } : item)));
  const find = (key: string) => store.get().find((item) => item.key === key);

  async function run(key: string): Promise<void> {
    const controller = new AbortController();
    controllers.set(key, controller);
    update(key, { state: 'uploading', error: null, loaded: 0 });
    try {
      let dataFile = find(key)?.dataFile ?? null;
      const file = find(key)!.file;
      const contentType = contentTypeOf(file);
      if (!dataFile) {
        dataFile = await api.create({
          corpus: options.corpusId,
          name: file.name,
          size: file.size,
          content_type: contentType,
        });
        if (controller.signal.aborted) {
          void api.remove(dataFile.id).catch(() => undefined);
          return;
        }
        update(key, { dataFile });
      }
      const stored = dataFile.s3_put_url
        ? await api.upload(dataFile.s3_put_url, file, {
            signal: controller.signal,
            contentType,
            onProgress: (loaded) => update(key, { loaded: Math.min(loaded, file.size) }),
          })
        : dataFile;
      update(key, { state: 'done', loaded: file.size, dataFile: stored });
      options.onUploaded?.(stored);
    } catch (error) {
      if (controller.signal.aborted || disposed) return;
      update(key, { state: 'error', error: errorMessage(error), loaded: 0 });
    } finally {
      controllers.delete(key);
      pump();
    }
  }

  function pump(): void {
    if (disposed) return;
    const items = store.get();
    let running = items.filter((item) => item.state === 'uploading').length;
    for (const item of items) {
      if (running >= concurrency) break;
      if (item.state !== 'waiting') continue;
      running += 1;
      // Marked before the next item is looked at, so one item never starts twice.
      update(item.key, { state: 'uploading' });
      void run(item.key);
    }
  }

  return {
    store,
    add(files) {
      const added: UploadItem[] = [...files].map((file) => {
        const reason = rejectionReason(file);
        return {
          key: `upload-${nextKey++}`,
          file,
          state: reason ? 'error' : 'waiting',
          loaded: 0,
          error: reason,
          retryable: !reason,
          dataFile: null,
        };
      });
      store.set((items) => [...items, ...added]);
      pump();
    },
    retry(key) {
      const item = find(key);
      if (!item || item.state !== 'error' || !item.retryable) return;
      update(key, { state: 'waiting', error: null });
      pump();
    },
    remove(key) {
      const item = find(key);
      if (!item) return;
      controllers.get(key)?.abort();
      store.set((items) => items.filter((other) => other.key !== key));
      // A declared file whose content never arrived is of no use: do not leave it listed.
      if (item.dataFile && item.state !== 'done') {
        void api.remove(item.dataFile.id).catch(() => undefined);
      }
      pump();
    },
    clearFinished() {
      store.set((items) => items.filter((item) => item.state !== 'done'));
    },
    dispose() {
      disposed = true;
      for (const controller of controllers.values()) controller.abort();
      // What was cut off can start again if the queue comes back.
      store.set((items) =>
        items.map((item) =>
          item.state === 'uploading' ? { ...item, state: 'waiting', loaded: 0 } : item,
        ),
      );
    },
    activate() {
      disposed = false;
      pump();
    },
  };
}
