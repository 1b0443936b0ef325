import type { MetadataType } from '@/api/types';

/** The metadata types with their display names (spec 001 §3), in the order forms offer them. */
export const METADATA_TYPES: { value: MetadataType; label: string }[] = [
  { value: 'text', label: 'Text' },
  { value: 'markdown', label: 'Markdown' },
  { value: 'date', label: 'Date' },
  { value: 'location', label: 'Location' },
  { value: 'reference', label: 'Reference' },
  { value: 'numeric', label: 'Numeric' },
  { value: 'url', label: 'URL' },
];

/** A type's display name; an unknown type reads as itself. */
export function metadataTypeLabel(type: string): string {
  return METADATA_TYPES.find((option) => option.value === type)?.label ?? type;
}
