/**
 * The metadata form's rules (spec 001 §5 "Metadata form", §6): the messages word for word, who
 * may edit what, and the values each type accepts.
 */
import type { AllowedMetadata } from '@/api/types';
import { METADATA_TYPES } from '@/lib/metadataTypes';

export { METADATA_TYPES };

export const METADATA_MESSAGES = {
  type: 'Invalid metadata type',
  notAllowed: 'This name/type combination is not allowed',
  name: 'Name may not be empty',
  value: 'Value may not be empty',
  numeric: 'Value must be a valid number',
  date: 'This date is invalid',
  url: 'Only HTTP and HTTPS URLs are allowed',
  freeEdit: 'Caution! You are in free editing mode',
  noneAllowed: 'There are no allowed metadata for this project.',
  noneAllowedAdmin: 'Use the administration panel to add them.',
  noneAllowedOther: 'Please contact your administrator.',
  protectedEdit: 'Only an administrator can edit this protected metadata',
  protectedDelete: 'Only an administrator can delete this protected metadata',
} as const;

export const DATE_MAX_LENGTH = 10;

export interface MetadataFields {
  type: string;
  name: string;
  value: string;
}

export type MetadataErrors = Partial<Record<keyof MetadataFields, string>>;

function isDate(value: string): boolean {
  const match = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(value);
  if (!match) return false;
  const [, year, month, day] = match;
  if (!month) return true;
  const m = Number(month);
  if (m < 1 || m > 12) return false;
  if (!day) return true;
  const date = new Date(Date.UTC(Number(year), m - 1, Number(day)));
  return date.getUTCMonth() === m - 1 && date.getUTCDate() === Number(day);
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

const isAllowed = (allowed: readonly AllowedMetadata[], fields: MetadataFields) =>
  allowed.some((item) => item.name === fields.name && item.type === fields.type);

/** The form's own checks: an empty object when it can be sent. */
export function validateMetadata(
  fields: MetadataFields,
  options: { freeEdit: boolean; allowed: readonly AllowedMetadata[] | null },
): MetadataErrors {
  const errors: MetadataErrors = {};
  if (!METADATA_TYPES.some((type) => type.value === fields.type))
    errors.type = METADATA_MESSAGES.type;
  if (!fields.name.trim()) errors.name = METADATA_MESSAGES.name;
  const value = fields.value.trim();
  if (!value) errors.value = METADATA_MESSAGES.value;
  else if (fields.type === 'numeric' && !Number.isFinite(Number(value)))
    errors.value = METADATA_MESSAGES.numeric;
  else if (fields.type === 'date' && (value.length > DATE_MAX_LENGTH || !isDate(value)))
    errors.value = METADATA_MESSAGES.date;
  else if (fields.type === 'url' && !isHttpUrl(value)) errors.value = METADATA_MESSAGES.url;
  // With no allowed list loaded, nothing is refused here: the server decides.
  if (!options.freeEdit && options.allowed && !errors.type && !errors.name) {
    if (!isAllowed(options.allowed, fields)) errors.name = METADATA_MESSAGES.notAllowed;
  }
  return errors;
}

/**
 * Whether a metadata may be edited or deleted (spec 001 §6): site admins any; other writers
 * only one whose name and type are allowed, or any while no allowed list is loaded.
 */
export function mayChange(
  item: { name: string; type: string },
  options: { canWrite: boolean; siteAdmin: boolean; allowed: readonly AllowedMetadata[] | null },
): boolean {
  if (options.siteAdmin) return true;
  if (!options.canWrite) return false;
  return !options.allowed || isAllowed(options.allowed, { ...item, value: '' });
}
