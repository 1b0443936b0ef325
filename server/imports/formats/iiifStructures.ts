/**
 * What a IIIF manifest says besides its canvases and that a viewer shows: its ranges (a table
 * of contents over the canvases) and its licence and attribution, read from Presentation 2 and 3
 * so the importer can keep them.
 */
import {
  isObject,
  labelText,
  languageValues,
  list,
  objects,
  refId,
  typeName,
  type Json,
} from './iiifJson';
import type { ParsedRange, ParsedRights } from './types';

/** Ranges read at most, all levels together: a table of contents, not a database. */
export const MAX_RANGES = 5000;
/** Deeper ranges are cut: no real table of contents nests this far, a cycle would. */
const MAX_DEPTH = 32;

/** A canvas reference without its media fragment: #xywh=… still means that canvas. */
function canvasRef(value: unknown): string {
  if (isObject(value) && typeName(value) === 'SpecificResource') {
    return canvasRef(value['source']);
  }
  return refId(value).replace(/#.*$/, '');
}

interface Node {
  json: Json;
  canvases: string[];
  /** Child ranges, as objects (embedded, Presentation 3) or ids (Presentation 2). */
  children: unknown[];
}

/** The children and canvases of one range in either version. */
function readRange(json: Json): Node {
  const canvases: string[] = [];
  const children: unknown[] = [];
  // Presentation 2.1 `members` mixes canvases and ranges in order; 2.0 has two lists;
  // Presentation 3 `items` holds canvases (or parts of them) and embedded ranges.
  const mixed = json['members'] ?? json['items'];
  if (mixed !== undefined) {
    for (const member of list(mixed)) {
      const type = isObject(member) ? typeName(member) : '';
      if (type === 'Range') children.push(member);
      else if (type === 'Canvas' || type === 'SpecificResource') {
        const id = canvasRef(member);
        if (id) canvases.push(id);
      }
    }
  }
  for (const canvas of list(json['canvases'])) {
    const id = canvasRef(canvas);
    if (id) canvases.push(id);
  }
  children.push(...list(json['ranges']));
  return { json, canvases, children };
}

/** The ranges of a manifest's `structures`, nested as the manifest nests them. */
export function parseStructures(manifest: Json): ParsedRange[] {
  const entries = objects(manifest['structures']);
  if (entries.length === 0) return [];
  const byId = new Map<string, Node>();
  const nodes = entries.map((json) => {
    const node = readRange(json);
    const id = refId(json);
    if (id && !byId.has(id)) byId.set(id, node);
    return node;
  });
  // Presentation 2.0 nests by naming the parent in the child (`within`).
  for (const node of nodes) {
    for (const parent of list(node.json['within'])) {
      const parentNode = byId.get(refId(parent));
      if (parentNode && parentNode !== node) parentNode.children.push(node.json);
    }
  }
  const referenced = new Set<string>();
  for (const node of nodes) {
    for (const child of node.children) {
      const id = refId(child);
      if (id && id !== refId(node.json)) referenced.add(id);
    }
  }

  // A child is found by its id among the listed ranges, else read where it is embedded.
  const embedded = new WeakMap<Json, Node>();
  const resolve = (child: unknown): Node | undefined => {
    const listed = byId.get(refId(child));
    if (listed || !isObject(child) || refOnly(child)) return listed;
    let node = embedded.get(child);
    if (!node) {
      node = readRange(child);
      embedded.set(child, node);
    }
    return node;
  };

  let budget = MAX_RANGES;
  const build = (node: Node, depth: number, path: Set<Node>): ParsedRange | null => {
    if (budget <= 0 || depth > MAX_DEPTH || path.has(node)) return null;
    budget -= 1;
    const inside = new Set(path).add(node);
    const ranges = node.children.flatMap((child) => {
      const childNode = resolve(child);
      const built = childNode ? build(childNode, depth + 1, inside) : null;
      return built ? [built] : [];
    });
    return { label: labelText(node.json['label']), canvases: node.canvases, ranges };
  };

  // Presentation 2 marks the table of contents' root `top`: its children are the top level.
  const tops = nodes.filter((node) => list(node.json['viewingHint']).includes('top'));
  const roots = tops.length
    ? tops.flatMap((top) =>
        top.children.length
          ? top.children.flatMap((child) => {
              const childNode = resolve(child);
              return childNode ? [childNode] : [];
            })
          : [top],
      )
    : nodes.filter((node) => !referenced.has(refId(node.json)));
  return roots.flatMap((node) => {
    const built = build(node, 0, new Set());
    return built ? [built] : [];
  });
}

/** An object that only points at a range listed elsewhere ({"@id", "@type"}, nothing inside). */
function refOnly(value: Json): boolean {
  return !('items' in value || 'members' in value || 'canvases' in value || 'ranges' in value);
}

/** Viewers make links and images of these: nothing but http(s) URLs is kept. */
function isWebUrl(value: string): boolean {
  return /^https?:\/\/\S+$/i.test(value);
}

/** Licence, attribution and logos, in Presentation 2 terms or their Presentation 3 successors. */
export function parseRights(manifest: Json): ParsedRights {
  const license = [...list(manifest['license']), ...list(manifest['rights'])]
    .map(refId)
    .filter(isWebUrl);
  const statement = isObject(manifest['requiredStatement']) ? manifest['requiredStatement'] : {};
  const logos = [
    ...list(manifest['logo']),
    ...objects(manifest['provider']).flatMap((provider) => list(provider['logo'])),
  ];
  return {
    license: [...new Set(license)],
    attribution: [
      ...languageValues(manifest['attribution']),
      ...languageValues(statement['value']),
    ],
    attributionLabel: languageValues(statement['label']),
    logo: [...new Set(logos.map(refId).filter(isWebUrl))],
  };
}

export function hasRights(rights: ParsedRights): boolean {
  return rights.license.length + rights.attribution.length + rights.logo.length > 0;
}
