/**
 * Reading the loose JSON of IIIF Presentation 2 and 3: values that may be one item or a list,
 * ids under `@id` or `id`, strings that may be language maps.
 */
import type { ParsedText } from './types';

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function list(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

export function objects(value: unknown): Json[] {
  return list(value).filter(isObject);
}

export function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

/** The id of a reference: a string, or an object's `@id` / `id` (Presentation 2 / 3). */
export function refId(value: unknown): string {
  if (typeof value === 'string') return value.trim();
  return isObject(value) ? text(value['@id'] ?? value['id']) : '';
}

/** The type of an object, Presentation 2 or 3 spelling (sc:Range, Range), without prefix. */
export function typeName(value: Json): string {
  return text(value['@type'] ?? value['type']).replace(/^[a-z]+:/, '');
}

/**
 * Every string of a label or value with its language: IIIF 3 language maps ({"en": ["…"]},
 * "none" for no language), IIIF 2 strings, arrays and {"@value", "@language"} objects.
 */
export function languageValues(value: unknown): ParsedText[] {
  const values: ParsedText[] = [];
  const collect = (item: unknown, language: string | null) => {
    if (typeof item === 'string') {
      if (item.trim() !== '') values.push({ value: item.trim(), language });
    } else if (Array.isArray(item)) {
      for (const entry of item) collect(entry, language);
    } else if (isObject(item)) {
      if ('@value' in item) {
        collect(item['@value'], text(item['@language']) || language);
      } else {
        for (const [key, entry] of Object.entries(item))
          collect(entry, key === 'none' ? null : key);
      }
    }
  };
  collect(value, null);
  return values;
}

/**
 * A label as a plain string. No language is preferred, then English, then the first value found.
 */
export function labelText(label: unknown): string {
  const values = languageValues(label);
  const best =
    values.find((v) => v.language === null) ??
    values.find((v) => v.language === 'en' || v.language?.startsWith('en-')) ??
    values[0];
  return best?.value ?? '';
}
