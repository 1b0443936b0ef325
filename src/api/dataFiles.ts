/**
 * Files uploaded into a project for an import (DataFiles in the API): declared with
 * POST /process/files/create/, their content PUT to the `s3_put_url` the server answers with,
 * listed per project, renamed or deleted, and imported together with POST /process/fromfiles/,
 * which answers with the files process and its import job (`job`).
 */
import { queryOptions } from '@tanstack/react-query';
import { api, readCookie, type Page } from './client';
import { ApiError, NetworkError, parseErrorBody } from './errors';
import type { JobDetail } from './jobs';
import type { Process } from './processTypes';

export type DataFileStatus = 'unchecked' | 'checked' | 'error';

export interface DataFile {
  id: string;
  name: string;
  hash: string | null;
  size: number;
  content_type: string;
  status: DataFileStatus;
  s3_url: string | null;
  /** Where the content goes; null once it is stored and checked. */
  s3_put_url: string | null;
  corpus: string;
  created?: string;
}

export interface DataFileCreate {
  corpus: string;
  name: string;
  size: number;
  content_type: string;
  hash?: string | null;
}

export interface ImportFromFiles {
  files: string[];
  folder_id?: string;
  folder_name?: string;
}

/** Files per page of the project's list. */
export const DATA_FILE_PAGE_SIZE = 50;

export const dataFileKeys = {
  all: ['data-files'] as const,
  corpus: (corpusId: string) => [...dataFileKeys.all, corpusId] as const,
  list: (corpusId: string, page: number) => [...dataFileKeys.corpus(corpusId), page] as const,
};

export function fetchDataFiles(corpusId: string, page: number): Promise<Page<DataFile>> {
  return api<Page<DataFile>>(`/process/files/${corpusId}/`, {
    query: { page, page_size: DATA_FILE_PAGE_SIZE },
  });
}

export function createDataFile(input: DataFileCreate): Promise<DataFile> {
  return api<DataFile>('/process/files/create/', { method: 'POST', body: input });
}

export async function deleteDataFile(id: string): Promise<void> {
  await api<null>(`/process/file/${id}/`, { method: 'DELETE' });
}

/** The files process the import makes, with the import job that runs it. */
export type FilesProcess = Process & { job: JobDetail };

export function importFromFiles(input: ImportFromFiles): Promise<FilesProcess> {
  return api<FilesProcess>('/process/fromfiles/', { method: 'POST', body: input });
}

// Not persisted: the list changes with every upload and is of no use offline.
export function dataFilesQuery(corpusId: string, page: number) {
  return queryOptions({
    queryKey: dataFileKeys.list(corpusId, page),
    queryFn: () => fetchDataFiles(corpusId, page),
  });
}

export class UploadAbortedError extends Error {
  constructor() {
    super('The upload was cancelled.');
    this.name = 'AbortError';
  }
}

export interface UploadOptions {
  /** Bytes sent so far, as the browser reports them. */
  onProgress?: (loaded: number, total: number) => void;
  signal?: AbortSignal;
  /** The Content-Type sent; default the blob's type, else application/octet-stream. */
  contentType?: string;
}

function parseJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * An upload URL on this page's own host is used as a path: behind a TLS proxy the server may
 * build it with http://, which an https page may not call.
 */
function sameOriginPath(url: string): string {
  if (typeof location === 'undefined') return url;
  try {
    const target = new URL(url, location.href);
    return target.host === location.host ? `${target.pathname}${target.search}` : url;
  } catch {
    return url;
  }
}

/**
 * PUTs a file's content to its s3_put_url. XMLHttpRequest rather than fetch: only it reports
 * upload progress. Credentials and the CSRF header go along as with every other call.
 */
export function uploadDataFile<T = DataFile>(
  url: string,
  content: Blob,
  options: UploadOptions = {},
): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', sameOriginPath(url));
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader(
      'Content-Type',
      options.contentType ?? (content.type || 'application/octet-stream'),
    );
    const csrf = readCookie('arkindex.csrf');
    if (csrf) xhr.setRequestHeader('X-CSRFToken', csrf);
    xhr.upload.onprogress = (event) => {
      options.onProgress?.(event.loaded, event.lengthComputable ? event.total : content.size);
    };
    const onAbort = () => xhr.abort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const settle = () => options.signal?.removeEventListener('abort', onAbort);
    xhr.onload = () => {
      settle();
      const body = parseJson(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300) {
        options.onProgress?.(content.size, content.size);
        resolve(body as T);
      } else if ((xhr.getResponseHeader('content-type') ?? '').includes('text/html')) {
        reject(new ApiError(404, 'Not found.'));
      } else {
        reject(parseErrorBody(xhr.status, body, xhr.statusText || `HTTP ${xhr.status}`));
      }
    };
    xhr.onerror = () => {
      settle();
      reject(new NetworkError());
    };
    xhr.onabort = () => {
      settle();
      reject(new UploadAbortedError());
    };
    if (options.signal?.aborted) {
      settle();
      reject(new UploadAbortedError());
      return;
    }
    xhr.send(content);
  });
}
