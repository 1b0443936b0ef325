/**
 * What an import tells its user once it has run: what it created and what it could not read.
 * Stored as the import job's result and printed by the CLI.
 */
import type { ImportProblem } from './plan';

export interface ImportReport {
  /** The folder the import created (a folder was imported), or null (single files). */
  folder_id: string | null;
  /** Where to look at the result: folder_id, else the parent imported into, else null (top level). */
  element_id: string | null;
  folders: number;
  pages: number;
  regions: number;
  lines: number;
  transcriptions: number;
  /** Images stored (local files) or referenced (IIIF canvases); an image met twice counts once. */
  images: number;
  /** Slugs of the element types the import added to the project. */
  types_created: string[];
  problems: ImportProblem[];
  skipped: string[];
  /** True when stopped before the end: what was imported so far stays. */
  stopped: boolean;
}

export function emptyReport(): ImportReport {
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
  };
}

/** One line a person can read: "12 pages, 65 regions, 325 lines, 323 transcriptions". */
export function summarizeReport(report: ImportReport): string {
  const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  return [
    count(report.folders, 'folder', 'folders'),
    count(report.pages, 'page', 'pages'),
    count(report.regions, 'region', 'regions'),
    count(report.lines, 'line', 'lines'),
    count(report.transcriptions, 'transcription', 'transcriptions'),
    count(report.images, 'image', 'images'),
  ].join(', ');
}
