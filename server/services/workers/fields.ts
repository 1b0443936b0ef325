/**
 * ListWorkerVersionFields: a version's user_configuration as a flat list of fields, each group
 * followed by its children, so a client can walk the schema page by page. A field's id is
 * derived from the version and its key path, so it stays the same from one read to the next.
 */
import { createHash } from 'node:crypto';
import type { SchemaField, UserConfiguration } from './configurationRules';

export interface FieldJson {
  id: string;
  parent_id: string | null;
  key: string;
  type: string;
  title: string;
  required: boolean;
  default: unknown;
  choices: unknown[] | null;
  subtype: string | null;
  multiline: boolean;
  help_text: string;
  children: string[];
}

/**
 * A UUID-shaped name (version 5 layout) for one field of one version, from its key path as a
 * list, so a key holding a dot never names another group's child.
 */
export function fieldId(versionId: string, path: readonly string[]): string {
  const hex = createHash('sha1')
    .update(`${versionId}:${JSON.stringify(path)}`)
    .digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return [
    hex.slice(0, 8),
    hex.slice(8, 12),
    `5${hex.slice(13, 16)}`,
    `${variant}${hex.slice(17, 20)}`,
    hex.slice(20, 32),
  ].join('-');
}

export function schemaFields(versionId: string, schema: UserConfiguration): FieldJson[] {
  const fields: FieldJson[] = [];
  const walk = (entries: Record<string, SchemaField>, parentPath: string[] | null) => {
    for (const [key, field] of Object.entries(entries)) {
      const path = [...(parentPath ?? []), key];
      const children = field.type === 'group' ? (field.children ?? {}) : {};
      fields.push({
        id: fieldId(versionId, path),
        parent_id: parentPath === null ? null : fieldId(versionId, parentPath),
        key,
        type: field.type,
        title: field.title,
        required: field.required !== false,
        default: field.default ?? null,
        choices: field.choices ?? null,
        subtype: field.subtype ?? null,
        multiline: field.multiline ?? false,
        help_text: field.help_text ?? '',
        children: Object.keys(children).map((child) => fieldId(versionId, [...path, child])),
      });
      walk(children, path);
    }
  };
  walk(schema, null);
  return fields;
}
