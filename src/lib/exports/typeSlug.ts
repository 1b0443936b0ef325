/**
 * The slug an importer makes of a type label (PAGE's @type, an ALTO OtherTag, a
 * custom="structure {type:…}"): marks dropped, camelCase split, every other run of characters
 * becomes one '_' (page-number → page_number). '' when nothing is left, e.g. for a label in a
 * non-Latin script; callers then fall back to the element name. Shared by the importers and the
 * writers, so what is written is read back as the same type.
 */
export function slugifyType(label: string): string {
  return label
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}
