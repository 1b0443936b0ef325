/** How processes and their modes read on screen. */
import type { ProcessListItem, ProcessMode } from '@/api/processTypes';

const MODE_LABELS: Record<ProcessMode, string> = {
  workers: 'Workers',
  files: 'Files',
  dataset: 'Dataset',
  export: 'Export',
  s3: 'S3',
  template: 'Template',
  local: 'Local',
};

export function modeLabel(mode: ProcessMode): string {
  return MODE_LABELS[mode] ?? mode;
}

/** A process without a name reads as the start of its id. */
export function processName(process: Pick<ProcessListItem, 'id' | 'name'>): string {
  return process.name?.trim() || `Process ${process.id.slice(0, 8)}`;
}
