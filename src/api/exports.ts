/**
 * Project exports and export processes (spec 001 §3 Export, Export source; §7 Exports; api part 2
 * §1.1, §3.5): the fetchers, the one query-key factory and the query options the export screens
 * share. A project export is an SQLite file the server builds in the background; an export
 * process turns one (or a new one) into PDF, PAGE XML, ALTO, DOCX or CSV with the format's
 * feature worker.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, apiUrl, type Page } from './client';
import { ApiError } from './errors';
import type { Process } from './processTypes';
import type { FeatureName } from './types';
import type { WorkerVersion } from './workers';

export type ExportState = 'created' | 'running' | 'done' | 'failed';

export interface CorpusExport {
  id: string;
  created: string;
  updated: string;
  corpus_id: string;
  user: { id: string; email: string; display_name: string };
  state: ExportState;
  source: string;
}

export interface ExportSource {
  name: string;
  last_update: string;
}

/** The document formats an export process writes, each behind its feature flag. */
export type ExportFormat = 'pdf' | 'pagexml' | 'alto' | 'docx' | 'csv';

export interface ExportFormatInfo {
  format: ExportFormat;
  label: string;
  /** The server's feature flag that offers it, and the feature its worker version provides. */
  feature: FeatureName;
}

/** In the order the modal offers them (spec 001 §9 names PDF, PAGE XML, DOCX and CSV). */
export const EXPORT_FORMATS: readonly ExportFormatInfo[] = [
  { format: 'pdf', label: 'PDF', feature: 'pdf_export' },
  { format: 'pagexml', label: 'PAGE XML', feature: 'pagexml_export' },
  { format: 'alto', label: 'ALTO', feature: 'alto_export' },
  { format: 'docx', label: 'DOCX', feature: 'docx_export' },
  { format: 'csv', label: 'CSV', feature: 'csv_export' },
];

/** POST /process/export/{corpus_id}/; `export_id` null starts a new SQLite export first. */
export interface ExportProcessCreate {
  format: ExportFormat;
  export_id: string | null;
  configuration?: Record<string, unknown>;
  farm_id?: string | null;
  element_id?: string;
  selection?: boolean;
}

/** Spec 001 §9: the export list's page size. */
export const EXPORTS_PAGE_SIZE = 10;
/** While an export is created or running the list asks again, to show it done. */
export const EXPORTS_POLL_MS = 4000;

export const exportKeys = {
  all: ['exports'] as const,
  corpus: (corpusId: string) => [...exportKeys.all, 'corpus', corpusId] as const,
  page: (corpusId: string, page: number) => [...exportKeys.corpus(corpusId), page] as const,
  /** Every done export of a project, for the export process' choice. */
  done: (corpusId: string) => [...exportKeys.corpus(corpusId), 'done'] as const,
  sources: () => [...exportKeys.all, 'sources'] as const,
  featureVersion: (feature: string) => [...exportKeys.all, 'feature-version', feature] as const,
};

export function fetchExports(corpusId: string, page: number): Promise<Page<CorpusExport>> {
  return api<Page<CorpusExport>>(`/corpus/${corpusId}/export/`, {
    query: { page, page_size: EXPORTS_PAGE_SIZE },
  });
}

/**
 * Every export of a project, all pages read: done exports last two weeks and a new one waits six
 * hours, so a project holds a few dozen at most.
 */
export async function fetchAllExports(corpusId: string): Promise<CorpusExport[]> {
  const exports: CorpusExport[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await fetchExports(corpusId, page);
    exports.push(...answer.results);
    if (!answer.next) return exports;
  }
}

export function startExport(corpusId: string, source?: string): Promise<CorpusExport> {
  return api<CorpusExport>(`/corpus/${corpusId}/export/`, {
    method: 'POST',
    body: source ? { source } : {},
  });
}

export async function deleteExport(id: string): Promise<void> {
  await api<null>(`/export/${id}/`, { method: 'DELETE' });
}

/** Where the browser downloads a done export's SQLite file (spec 001 §7: a link). */
export function exportDownloadUrl(id: string): string {
  return apiUrl(`/export/${id}/`);
}

export function fetchExportSources(): Promise<ExportSource[]> {
  return api<ExportSource[]>('/export-sources/');
}

/** The worker version providing a built-in feature; null when none does (the API answers 404). */
export async function fetchFeatureWorkerVersion(feature: string): Promise<WorkerVersion | null> {
  try {
    return await api<WorkerVersion>(`/workers/versions/feature/${feature}/`);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export function createExportProcess(
  corpusId: string,
  input: ExportProcessCreate,
): Promise<Process> {
  return api<Process>(`/process/export/${corpusId}/`, { method: 'POST', body: input });
}

export function isExportActive(state: ExportState): boolean {
  return state === 'created' || state === 'running';
}

/** Download only when done; delete when done or running (spec 001 §4 Export). */
export const canDownloadExport = (item: CorpusExport) => item.state === 'done';
export const canDeleteExport = (item: CorpusExport) =>
  item.state === 'done' || item.state === 'running';

/** A page of a project's exports, asked again every 4 s while one of them is being made. */
export function exportsQuery(corpusId: string, page: number, pollMs = EXPORTS_POLL_MS) {
  return queryOptions({
    queryKey: exportKeys.page(corpusId, page),
    queryFn: () => fetchExports(corpusId, page),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => {
      if (query.state.error) return false;
      const results = query.state.data?.results ?? [];
      return results.some((item) => isExportActive(item.state)) ? pollMs : false;
    },
  });
}

/** The project's exports newest first, for the export process modal's choice. */
export function allExportsQuery(corpusId: string) {
  return queryOptions({
    queryKey: exportKeys.done(corpusId),
    queryFn: () => fetchAllExports(corpusId),
  });
}

export const exportSourcesQuery = queryOptions({
  queryKey: exportKeys.sources(),
  queryFn: fetchExportSources,
  staleTime: 5 * 60 * 1000,
});

export function featureWorkerVersionQuery(feature: string) {
  return queryOptions({
    queryKey: exportKeys.featureVersion(feature),
    queryFn: () => fetchFeatureWorkerVersion(feature),
    staleTime: 5 * 60 * 1000,
  });
}
