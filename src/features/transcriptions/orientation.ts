import type { TextOrientation } from '@/api/types';

export const ORIENTATIONS: { value: TextOrientation; label: string }[] = [
  { value: 'horizontal-lr', label: 'Left to right' },
  { value: 'horizontal-rl', label: 'Right to left' },
  { value: 'vertical-lr', label: 'Top to bottom, left to right' },
  { value: 'vertical-rl', label: 'Top to bottom, right to left' },
];

export function isOrientation(value: string): value is TextOrientation {
  return ORIENTATIONS.some((orientation) => orientation.value === value);
}

/** Text written right to left (Arabic, Hebrew…) is shown right to left. */
export function isRightToLeft(orientation: string): boolean {
  return orientation.endsWith('-rl');
}
