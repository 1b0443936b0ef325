/**
 * Import screen tests: a stand-in for the data-file, import and job endpoints (fetch), and a
 * fake XMLHttpRequest for the uploads, which a test drives (progress, answer) or lets answer
 * by itself. The page is mounted with the corpora suites' router harness.
 */
import { act } from '@testing-library/react';
import { vi } from 'vitest';
import type { DataFile } from '@/api/dataFiles';
import type { ImportReport, JobDetail } from '@/api/jobs';
import type { Corpus, Element } from '@/api/types';
import { apiError, elementWith, json, pageOf, stubFetch } from '../support/harness';
import { uuid } from '../corpora/harness';

export {
  apiError,
  isolateEachTest,
  makeCorpus,
  makeUser,
  renderPage,
  uuid,
} from '../corpora/harness';

export function makeDataFile(corpusId: string, overrides: Partial<DataFile> = {}): DataFile {
  const id = overrides.id ?? uuid();
  return {
    id,
    name: 'folio-1.jpg',
    hash: 'd41d8cd98f00b204e9800998ecf8427e',
    size: 2048,
    content_type: 'image/jpeg',
    status: 'checked',
    s3_url: null,
    s3_put_url: null,
    corpus: corpusId,
    created: new Date(Date.now() - 3 * 60_000).toISOString(),
    ...overrides,
  };
}

export function makeFolder(corpus: Corpus, name = 'Box 1'): Element {
  return elementWith({
    id: uuid(),
    type: 'folder',
    name,
    corpus: { id: corpus.id, name: corpus.name },
    rights: corpus.rights,
    classifications: [],
  });
}

export function makeReport(overrides: Partial<ImportReport> = {}): ImportReport {
  return {
    folder_id: null,
    element_id: null,
    folders: 0,
    pages: 0,
    regions: 0,
    lines: 0,
    transcriptions: 0,
    images: 0,
    types_created: [],
    problems: [],
    skipped: [],
    stopped: false,
    ...overrides,
  };
}

/** A fake XMLHttpRequest: records what is sent; the test (or auto mode) makes it answer. */
export class FakeXhr {
  static sent: FakeXhr[] = [];
  /** Called on send; answer right away there for an upload that just works. */
  static onSend: ((xhr: FakeXhr) => void) | null = null;

  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown = null;
  withCredentials = false;
  aborted = false;
  status = 0;
  statusText = '';
  responseText = '';
  private responseHeaders: Record<string, string> = {};
  upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name.toLowerCase()] = value;
  }
  getResponseHeader(name: string): string | null {
    return this.responseHeaders[name.toLowerCase()] ?? null;
  }
  send(body: unknown) {
    this.body = body;
    FakeXhr.sent.push(this);
    FakeXhr.onSend?.(this);
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }

  /** Reports `loaded` bytes sent. */
  progress(loaded: number, total: number) {
    act(() => {
      this.upload.onprogress?.({ loaded, total, lengthComputable: true } as ProgressEvent);
    });
  }
  /** Answers; resolves once what the answer sets off has settled. */
  async respond(status: number, body: unknown) {
    await act(async () => {
      this.status = status;
      this.responseText = JSON.stringify(body);
      this.responseHeaders['content-type'] = 'application/json';
      this.onload?.();
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
  }
  async failNetwork() {
    await act(async () => {
      this.onerror?.();
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
  }
}

export interface ImportServerOptions {
  corpus: Corpus;
  folder?: Element;
  files?: DataFile[];
  /** What GET /jobs/{id}/ answers, one after the other (the last one repeats). */
  jobStates?: Partial<JobDetail>[];
  /** Answers POST /process/files/create/ itself when it returns a Response. */
  onCreate?: (body: Record<string, unknown>) => Response | undefined;
  /** Answers POST /process/fromfiles/ itself when it returns a Response. */
  onImport?: (body: Record<string, unknown>) => Response | undefined;
  /** Uploads answer by themselves (200, the file checked), else the test answers them. */
  autoUpload?: boolean;
}

/** The fetch stand-in, with the files it holds, and the fake XHR installed. */
export function importServer(options: ImportServerOptions) {
  const { corpus, folder } = options;
  const files: DataFile[] = [...(options.files ?? [])];
  let jobPolls = 0;
  let job: JobDetail | null = null;

  const notFound = () => apiError(404, [{ attr: null, detail: 'Not found.', code: 'not_found' }]);
  const stored = (id: string): DataFile | undefined => files.find((file) => file.id === id);

  const api = stubFetch((call) => {
    const { method, path, query } = call;
    const body = call.body as Record<string, unknown> & {
      name: string;
      size: number;
      content_type: string;
      files: string[];
    };
    let match: RegExpMatchArray | null;

    if (method === 'GET' && path === `/corpus/${corpus.id}/`) return json(200, corpus);
    if (method === 'GET' && folder && path === `/element/${folder.id}/`) return json(200, folder);
    if (method === 'GET' && path === `/process/files/${corpus.id}/`) {
      const page = Number(query.get('page') ?? '1');
      const size = Number(query.get('page_size') ?? '20');
      return json(
        200,
        pageOf([...files].reverse(), page, size, (n) => `?page=${n}`),
      );
    }
    if (method === 'POST' && path === '/process/files/create/') {
      const answer = options.onCreate?.(body);
      if (answer) return answer;
      const file = makeDataFile(corpus.id, {
        name: body.name,
        size: body.size,
        content_type: body.content_type,
        status: 'unchecked',
        hash: null,
        created: new Date().toISOString(),
      });
      // On the page's own origin, as the server builds it from the request's host.
      file.s3_put_url = `${location.origin}/api/v1/process/file/${file.id}/upload/`;
      files.push(file);
      return json(201, file);
    }
    if ((match = path.match(/^\/process\/file\/([^/]+)\/$/)) && method === 'DELETE') {
      const index = files.findIndex((file) => file.id === match![1]);
      if (index < 0) return notFound();
      files.splice(index, 1);
      return json(204, null);
    }
    if (method === 'POST' && path === '/process/fromfiles/') {
      const answer = options.onImport?.(body);
      if (answer) return answer;
      job = {
        id: uuid(),
        description: `Import of ${body.files.length} files`,
        status: 'queued',
        progress: 0,
        enqueued_at: new Date().toISOString(),
        started_at: null,
        ended_at: null,
        kind: 'import',
        corpus_id: corpus.id,
        result: null,
        error: null,
      };
      const now = new Date().toISOString();
      // The files process the server makes, with its one import task, and the job that runs it.
      return json(201, {
        id: uuid(),
        name: job.description,
        mode: 'files',
        corpus: corpus.id,
        corpus_name: corpus.name,
        state: 'pending',
        creator: { id: uuid(), display_name: 'Me' },
        created: now,
        updated: now,
        started: now,
        finished: null,
        activity_state: 'disabled',
        element: null,
        element_type: null,
        element_name_contains: null,
        load_children: 'none',
        ml_class_id: null,
        selection_count: 0,
        template_id: null,
        farm: null,
        chunks: 1,
        use_gpu: false,
        tasks: [],
        job,
      });
    }
    if ((match = path.match(/^\/jobs\/([^/]+)\/$/)) && job && match[1] === job.id) {
      if (method === 'DELETE') return json(204, null);
      const states = options.jobStates ?? [];
      const state = states[Math.min(jobPolls, states.length - 1)] ?? {};
      jobPolls += 1;
      return json(200, { ...job, ...state });
    }
    return apiError(500, [{ attr: null, detail: `Unexpected ${method} ${path}` }]);
  });

  FakeXhr.sent = [];
  FakeXhr.onSend = options.autoUpload
    ? (xhr) => {
        const id = xhr.url.match(/\/process\/file\/([^/]+)\/upload\/$/)?.[1] ?? '';
        const file = stored(id);
        // Answered after the caller has set its handlers up, as a real request would be.
        queueMicrotask(() => {
          if (!file) return void xhr.respond(404, { detail: 'Not found.' });
          xhr.progress(file.size, file.size);
          Object.assign(file, { status: 'checked', s3_put_url: null });
          void xhr.respond(200, file);
        });
      }
    : null;
  vi.stubGlobal('XMLHttpRequest', FakeXhr);

  /** A PUT's file, once the test answers it as the server would. */
  const uploadFor = (xhr: FakeXhr) => {
    const id = xhr.url.match(/\/process\/file\/([^/]+)\/upload\/$/)?.[1] ?? '';
    return stored(id);
  };

  return {
    files,
    ...api,
    /** Answers an upload as the server does when the content is right. */
    acceptUpload(xhr: FakeXhr): Promise<void> {
      const file = uploadFor(xhr)!;
      Object.assign(file, { status: 'checked', s3_put_url: null });
      return xhr.respond(200, file);
    },
    get jobPolls() {
      return jobPolls;
    },
  };
}

/** A File of `size` bytes. */
export function fileOf(name: string, size: number, type = ''): File {
  return new File([new Uint8Array(size)], name, { type });
}
