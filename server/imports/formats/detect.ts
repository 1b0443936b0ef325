/**
 * Telling an uploaded file's format from its content, and reading XML into a small element tree
 * that the PAGE and ALTO parsers share.
 */
import { XMLParser, XMLValidator, type EntityDecoderOptions } from 'fast-xml-parser';
import { ImportFormatError } from './types';

export type DetectedFormat = 'page' | 'alto' | 'iiif-manifest';

const PAGE_NAMESPACE = 'primaresearch.org/PAGE/gts/pagecontent';
const ALTO_NAMESPACE = 'loc.gov/standards/alto';
const PRESENTATION_CONTEXT = /iiif\.io\/api\/presentation\/[23]\//;

/**
 * The content decides: the XML root element (PcGts, alto; any namespace) or the JSON-LD
 * @context / type of a IIIF manifest. The file name only matters when the content cannot even be
 * sniffed (garbled prolog, truncated JSON): a .xml or .json file that names a known namespace is
 * still routed to its parser, so the user gets that parser's precise error instead of "unknown
 * format".
 */
export function detectFormat(text: string, filename: string): DetectedFormat | null {
  const content = stripBom(text).trimStart();
  if (content.startsWith('<')) {
    const root = sniffRootElement(content);
    if (root === 'pcgts') return 'page';
    if (root === 'alto') return 'alto';
    if (root !== null) return null;
  } else if (content.startsWith('{')) {
    const json = tryParseJson(content);
    if (json !== undefined) return isIiifManifest(json) ? 'iiif-manifest' : null;
  } else {
    return null;
  }
  const head = content.slice(0, 4096);
  const extension = /\.([a-z0-9]+)$/i.exec(filename)?.[1]?.toLowerCase();
  if (extension === 'xml' && head.includes(PAGE_NAMESPACE)) return 'page';
  if (extension === 'xml' && head.includes(ALTO_NAMESPACE)) return 'alto';
  if (extension === 'json' && PRESENTATION_CONTEXT.test(head)) return 'iiif-manifest';
  return null;
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Lower-cased local name of the first element, skipping the prolog; null if none can be read. */
function sniffRootElement(text: string): string | null {
  let rest = text;
  for (;;) {
    rest = rest.trimStart();
    if (rest.startsWith('<?')) {
      const end = rest.indexOf('?>');
      if (end < 0) return null;
      rest = rest.slice(end + 2);
    } else if (rest.startsWith('<!--')) {
      const end = rest.indexOf('-->');
      if (end < 0) return null;
      rest = rest.slice(end + 3);
    } else if (/^<!DOCTYPE/i.test(rest)) {
      // An internal subset may hold '>' characters; it ends with ']' before the final '>'.
      const match = /^<!DOCTYPE[^[>]*(?:\[[\s\S]*?\]\s*)?>/i.exec(rest);
      if (!match) return null;
      rest = rest.slice(match[0].length);
    } else {
      const match = /^<(?:[A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)[\s/>]/.exec(rest);
      return match ? match[1]!.toLowerCase() : null;
    }
  }
}

function tryParseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function isIiifManifest(json: unknown): boolean {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return false;
  const record = json as Record<string, unknown>;
  const type = record['type'] ?? record['@type'];
  return type === 'Manifest' || type === 'sc:Manifest';
}

// ————————————————————————————————————————————————————————————————————————————————————————————
// XML element tree

export interface XmlElement {
  /** Qualified name as written (pc:TextRegion). */
  name: string;
  /** Name without prefix (TextRegion): PAGE and ALTO are matched by local names. */
  local: string;
  /** Resolved namespace URI, '' when none. */
  namespace: string;
  /** Attributes by the name as written, values entity-decoded. */
  attributes: Record<string, string>;
  children: XmlElement[];
  /** The element's own character data (text and CDATA), concatenated, untrimmed. */
  text: string;
}

const XML_ENTITIES = new Map([
  ['amp', '&'],
  ['lt', '<'],
  ['gt', '>'],
  ['quot', '"'],
  ['apos', "'"],
]);

/** More text than this from DTD-declared entities is an expansion attack, not a transcription. */
const MAX_DECLARED_EXPANSION = 1_000_000;

/**
 * fast-xml-parser decodes numeric character references (&#233;) only in its deprecated HTML
 * mode, which also decodes HTML names like &nbsp; that XML does not define. This decoder does
 * exactly XML's five names, numeric references and the document's own DTD entities, in one pass
 * so that "&amp;#233;" stays the literal text "&#233;" and entities never expand recursively.
 */
function xmlEntityDecoder(): EntityDecoderOptions {
  let declared: Record<string, string> = {};
  let expanded = 0;
  const expand = (whole: string, ref: string): string => {
    if (ref.startsWith('#')) {
      const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      const allowed =
        code === 0x9 ||
        code === 0xa ||
        code === 0xd ||
        (code >= 0x20 && code <= 0xd7ff) ||
        (code >= 0xe000 && code <= 0xfffd) ||
        (code >= 0x10000 && code <= 0x10ffff);
      return allowed ? String.fromCodePoint(code) : whole;
    }
    const builtIn = XML_ENTITIES.get(ref);
    if (builtIn !== undefined) return builtIn;
    const value = Object.hasOwn(declared, ref) ? declared[ref] : undefined;
    if (value === undefined) return whole;
    expanded += value.length;
    if (expanded > MAX_DECLARED_EXPANSION) {
      throw new Error('its DTD entities expand to more than a million characters');
    }
    return value;
  };
  return {
    setExternalEntities: (entities) => {
      declared = { ...declared, ...entities };
    },
    addInputEntities: (entities) => {
      declared = { ...declared, ...entities };
    },
    reset: () => {
      declared = {};
      expanded = 0;
    },
    setXmlVersion: () => {},
    decode: (text) =>
      text.indexOf('&') < 0
        ? text
        : text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z_][\w.-]*);/g, expand),
  };
}

type OrderedNode = Record<string, unknown>;

/** Parses a whole document; throws ImportFormatError when it is not well-formed XML. */
export function readXml(text: string): XmlElement {
  const source = stripBom(text);
  if (source.trim() === '') throw new ImportFormatError('The file is empty.');
  const validation = XMLValidator.validate(source);
  if (validation !== true) {
    const { msg, line, col } = validation.err;
    const where = col === undefined ? `line ${line}` : `line ${line}, column ${col}`;
    throw new ImportFormatError(`The file is not well-formed XML (${where}): ${msg}`);
  }
  const parser = new XMLParser({
    preserveOrder: true,
    ignoreAttributes: false,
    attributeNamePrefix: '',
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: false,
    ignoreDeclaration: true,
    ignorePiTags: true,
    processEntities: true,
    entityDecoder: xmlEntityDecoder(),
  });
  let nodes: unknown;
  try {
    nodes = parser.parse(source);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ImportFormatError(`The file is not well-formed XML: ${reason}`);
  }
  const roots = Array.isArray(nodes) ? toElements(nodes as OrderedNode[], new Map()) : [];
  const root = roots[0];
  if (!root) throw new ImportFormatError('The file has no XML root element.');
  return root;
}

function toElements(
  nodes: readonly OrderedNode[],
  scope: ReadonlyMap<string, string>,
): XmlElement[] {
  const elements: XmlElement[] = [];
  for (const node of nodes) {
    const name = Object.keys(node).find((key) => key !== ':@');
    if (name === undefined || name.startsWith('#') || name.startsWith('?')) continue;
    const attributes = (node[':@'] ?? {}) as Record<string, string>;
    let inner = scope;
    for (const [key, value] of Object.entries(attributes)) {
      if (key === 'xmlns' || key.startsWith('xmlns:')) {
        if (inner === scope) inner = new Map(scope);
        (inner as Map<string, string>).set(key === 'xmlns' ? '' : key.slice(6), value);
      }
    }
    const colon = name.indexOf(':');
    const prefix = colon < 0 ? '' : name.slice(0, colon);
    const content = Array.isArray(node[name]) ? (node[name] as OrderedNode[]) : [];
    let text = '';
    for (const child of content) {
      const value = child['#text'];
      if (value !== undefined) text += String(value);
    }
    elements.push({
      name,
      local: colon < 0 ? name : name.slice(colon + 1),
      namespace: inner.get(prefix) ?? '',
      attributes,
      children: toElements(content, inner),
      text,
    });
  }
  return elements;
}

/** An attribute by name, falling back to a prefixed attribute of that local name. */
export function attribute(element: XmlElement, name: string): string | undefined {
  const direct = element.attributes[name];
  if (direct !== undefined) return direct;
  for (const [key, value] of Object.entries(element.attributes)) {
    if (key.endsWith(`:${name}`) && !key.startsWith('xmlns')) return value;
  }
  return undefined;
}

export function child(element: XmlElement, local: string): XmlElement | undefined {
  return element.children.find((c) => c.local === local);
}

export function children(element: XmlElement, local: string): XmlElement[] {
  return element.children.filter((c) => c.local === local);
}
