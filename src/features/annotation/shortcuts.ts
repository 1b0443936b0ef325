/**
 * The annotation mode's tool keys. The letters avoid the page's own keys ('m' loads more
 * children, '?' opens the help); the keyboard help (features/shell/keyboardHelp.ts) lists them.
 */
import type { Tool } from './state';

export const TOOL_LABELS: Record<Tool, string> = {
  select: 'Select',
  'type-edit': 'Edit type',
  deletion: 'Delete',
  rectangle: 'Rectangle',
  polygon: 'Polygon',
  median: 'Median point',
};

export const SHORTCUT_OF: Record<Tool, string> = {
  select: 's',
  'type-edit': 't',
  deletion: 'd',
  rectangle: 'r',
  polygon: 'p',
  median: 'i',
};

export const TOOL_OF_KEY: Record<string, Tool> = Object.fromEntries(
  Object.entries(SHORTCUT_OF).map(([tool, key]) => [key, tool as Tool]),
);
