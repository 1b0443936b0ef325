/**
 * PAGE XML (PRImA) to ParsedPage. Both dialects seen in the wild are read: eScriptorium (region
 * class in custom="structure {type:…;}", baselines, no reading order) and Aletheia/Transkribus
 * (TextRegion@type, ReadingOrder, region-level text, separators and graphics).
 */
import { attribute, child, children, readXml, type XmlElement } from './detect';
import {
  PointListError,
  boundingBox,
  parsePointList,
  rectangle,
  toClosedRing,
  toPolyline,
} from './polygon';
import { orderByPosition, orderByRank, readDirection, type TextFlow } from './lineOrder';
import {
  ImportFormatError,
  slugifyType,
  type LayoutFormat,
  type ParsedLine,
  type ParsedPage,
  type ParsedRegion,
  type Point,
} from './types';

export function parsePageXml(text: string): ParsedPage {
  const root = readXml(text);
  if (root.local !== 'PcGts') {
    const what = root.local.toLowerCase() === 'alto' ? 'an ALTO file' : `<${root.local}>`;
    throw new ImportFormatError(`Not a PAGE XML file: the root element is ${what}, not <PcGts>.`);
  }
  const warnings: string[] = [];
  const format = pageFormat(root.namespace, warnings);
  const pages = children(root, 'Page');
  const page = pages[0];
  if (!page) throw new ImportFormatError('The PAGE XML file has no <Page> element.');
  if (pages.length > 1)
    warnings.push(`The file has ${pages.length} Page elements; only the first is read.`);

  const imageFilename = attribute(page, 'imageFilename') ?? '';
  if (imageFilename === '') warnings.push('Page has no imageFilename.');
  const width = positiveSize(attribute(page, 'imageWidth'));
  const height = positiveSize(attribute(page, 'imageHeight'));
  if (width === null || height === null) {
    throw new ImportFormatError(
      'The PAGE XML file does not declare the image size (Page@imageWidth and Page@imageHeight).',
    );
  }

  const refs = readingOrderRefs(page);
  const order: LineOrderContext = {
    places: new Map(refs.map((ref, place) => [ref, place] as const).reverse()),
    flow: flowOf(page, {}),
    fileOrderIsReadingOrder: writtenByEscriptorium(root),
  };
  const regions: ParsedRegion[] = [];
  const seen = new Set<string>();
  for (const element of regionElements(page)) {
    const region = readRegion(element, regions.length, warnings, order);
    if (!region) continue;
    if (seen.has(region.id)) warnings.push(`Region id ${region.id} is used more than once.`);
    seen.add(region.id);
    regions.push(region);
  }

  return {
    format,
    imageFilename,
    width,
    height,
    regions: applyReadingOrder(refs, regions, warnings),
    warnings,
  };
}

function pageFormat(namespace: string, warnings: string[]): LayoutFormat {
  if (namespace.endsWith('/2013-07-15')) return 'page-2013';
  if (namespace.endsWith('/2019-07-15')) return 'page-2019';
  // Other versions keep the element names read here; a warning lets a user check the result.
  warnings.push(
    namespace === ''
      ? 'The PcGts element has no namespace; read as PAGE 2019-07-15.'
      : `Unknown PAGE namespace ${namespace}; read as PAGE 2019-07-15.`,
  );
  return 'page-2019';
}

function positiveSize(value: string | undefined): number | null {
  if (value === undefined || !/^\s*\d+(\.\d+)?\s*$/.test(value)) return null;
  const size = Math.round(Number(value));
  return size > 0 ? size : null;
}

/**
 * Every *Region element under Page, nested ones too (a TableRegion may hold TextRegions), in
 * document order. Border, PrintSpace, ReadingOrder and the like are not regions.
 */
function regionElements(parent: XmlElement): XmlElement[] {
  const found: XmlElement[] = [];
  for (const element of parent.children) {
    if (!element.local.endsWith('Region')) continue;
    found.push(element, ...regionElements(element));
  }
  return found;
}

/** What orders a region's lines: the ReadingOrder's places by id, the page's text flow. */
interface LineOrderContext {
  places: ReadonlyMap<string, number>;
  flow: TextFlow;
  /** eScriptorium writes lines in the order its transcribers set, which is explicit. */
  fileOrderIsReadingOrder: boolean;
}

function writtenByEscriptorium(root: XmlElement): boolean {
  const metadata = child(root, 'Metadata');
  const creator = metadata ? child(metadata, 'Creator') : undefined;
  return /escriptorium/i.test(creator?.text ?? '');
}

/** An element's readingDirection and textLineOrder, each falling back to the outer one's. */
function flowOf(element: XmlElement, outer: TextFlow): TextFlow {
  return {
    readingDirection:
      readDirection(attribute(element, 'readingDirection')) ?? outer.readingDirection,
    textLineOrder: readDirection(attribute(element, 'textLineOrder')) ?? outer.textLineOrder,
  };
}

function readRegion(
  element: XmlElement,
  position: number,
  warnings: string[],
  order: LineOrderContext,
): ParsedRegion | null {
  const kind = element.local === 'TextRegion' ? 'text' : 'other';
  let id = attribute(element, 'id') ?? '';
  if (id === '') {
    id = `unnamed_region_${position + 1}`;
    warnings.push(`A ${element.local} has no id; it was given the id ${id}.`);
  }
  const { type, typeLabel } = regionType(element);
  const lines = kind === 'text' ? orderLines(element, readLines(element, id, warnings), order) : [];
  if (kind === 'text') checkLineOrder(element, id, lines, warnings);

  const outline = coordsRing(element);
  if (typeof outline !== 'string') {
    return { id, kind, element: element.local, type, typeLabel, polygon: outline, lines };
  }
  const box = boundingBox(lines.flatMap((line) => line.polygon));
  if (!box) {
    warnings.push(`${element.local} ${id} skipped: ${outline}.`);
    return null;
  }
  // Keeping the lines matters more than the region's own outline.
  warnings.push(`${element.local} ${id}: ${outline}; the box around its lines is used instead.`);
  const polygon = rectangle(box.minX, box.minY, box.maxX - box.minX, box.maxY - box.minY);
  return { id, kind, element: element.local, type, typeLabel, polygon, lines };
}

/**
 * eScriptorium and Transkribus put the class in custom="structure {type:…;}"; it is the more
 * specific of the two when a file has both (Transkribus' user-defined tags), else PAGE's @type,
 * else the element's own name.
 */
function regionType(element: XmlElement): { type: string; typeLabel: string } {
  const fallback = element.local;
  const candidates = [
    customStructureType(attribute(element, 'custom')),
    attribute(element, 'type'),
  ];
  for (const label of candidates) {
    if (label === undefined || label.trim() === '') continue;
    const type = slugifyType(label.trim());
    if (type !== '') return { type, typeLabel: label.trim() };
  }
  return { type: slugifyType(fallback), typeLabel: fallback };
}

/** Reads type out of 'readingOrder {index:0;} structure {type:MainZone;}'. */
export function customStructureType(custom: string | undefined): string | undefined {
  if (!custom) return undefined;
  const structure = /(?:^|\s)structure\s*\{([^}]*)\}/.exec(custom)?.[1];
  const type =
    structure === undefined ? undefined : /(?:^|;)\s*type\s*:([^;]*)/.exec(structure)?.[1];
  // Transkribus escapes spaces and braces in custom values as \uXXXX.
  return type?.replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) =>
    String.fromCharCode(parseInt(hex, 16)),
  );
}

/** The closed ring of the element's Coords, or why there is none. */
function coordsRing(element: XmlElement): Point[] | string {
  const coords = child(element, 'Coords');
  if (!coords) return 'it has no Coords';
  const points = pointsOf(coords);
  if (typeof points === 'string') return `its Coords cannot be read (${points})`;
  return toClosedRing(points) ?? 'its Coords have fewer than three distinct points or no area';
}

/** @points, or <Point x y/> children as PAGE 2010 and older wrote them; or why not. */
function pointsOf(element: XmlElement): Point[] | string {
  const list = attribute(element, 'points');
  try {
    if (list !== undefined) return parsePointList(list);
    return children(element, 'Point').flatMap((point) =>
      parsePointList(`${attribute(point, 'x') ?? ''},${attribute(point, 'y') ?? ''}`),
    );
  } catch (error) {
    if (error instanceof PointListError) return error.message;
    throw error;
  }
}

function readLines(region: XmlElement, regionId: string, warnings: string[]): ParsedLine[] {
  const lines: ParsedLine[] = [];
  const elements = children(region, 'TextLine');
  elements.forEach((element, index) => {
    let id = attribute(element, 'id') ?? '';
    if (id === '') {
      id = `${regionId}_line_${index + 1}`;
      warnings.push(`A TextLine in region ${regionId} has no id; it was given the id ${id}.`);
    }
    const polygon = coordsRing(element);
    if (typeof polygon === 'string') {
      warnings.push(`TextLine ${id} in region ${regionId} skipped: ${polygon}.`);
      return;
    }
    lines.push({
      id,
      polygon,
      baseline: readBaseline(element, id, warnings),
      text: ownText(element),
    });
  });
  return lines;
}

/** A TextLine's own rank: PAGE 2019's @index, else Transkribus' custom="readingOrder {index:…;}". */
function lineIndex(element: XmlElement): number | undefined {
  const own = attribute(element, 'index')?.trim();
  if (own && /^\d+$/.test(own)) return Number(own);
  const custom = /(?:^|\s)readingOrder\s*\{[^}]*?\bindex\s*:\s*(\d+)/.exec(
    attribute(element, 'custom') ?? '',
  )?.[1];
  return custom === undefined ? undefined : Number(custom);
}

/**
 * The region's lines in reading order: the ReadingOrder's when it places every one of them,
 * else their own indexes when each has one, else eScriptorium's file order (its transcribers
 * order lines by hand: a continuation written higher, to the right, follows its entry line),
 * else their position in the region's text flow.
 */
function orderLines(
  region: XmlElement,
  lines: ParsedLine[],
  order: LineOrderContext,
): ParsedLine[] {
  if (lines.length < 2) return lines;
  const indexes = new Map<string, number | undefined>();
  for (const element of children(region, 'TextLine')) {
    const id = attribute(element, 'id');
    if (id) indexes.set(id, lineIndex(element));
  }
  return (
    orderByRank(lines, (line) => order.places.get(line.id)) ??
    orderByRank(lines, (line) => indexes.get(line.id)) ??
    (order.fileOrderIsReadingOrder ? lines : orderByPosition(lines, flowOf(region, order.flow)))
  );
}

function readBaseline(line: XmlElement, id: string, warnings: string[]): Point[] | null {
  const baseline = child(line, 'Baseline');
  if (!baseline) return null;
  const points = pointsOf(baseline);
  const polyline = typeof points === 'string' ? null : toPolyline(points);
  if (!polyline) {
    const reason = typeof points === 'string' ? points : 'fewer than two distinct points';
    warnings.push(`TextLine ${id}: its Baseline is ignored (${reason}).`);
  }
  return polyline;
}

/** The element's own TextEquiv/Unicode; with alternatives, the one with the lowest @index. */
function ownText(element: XmlElement): string {
  const equivs = children(element, 'TextEquiv');
  let best: XmlElement | undefined;
  let bestIndex = Infinity;
  for (const equiv of equivs) {
    const index = Number(attribute(equiv, 'index') ?? NaN);
    const rank = Number.isFinite(index) ? index : Infinity;
    if (!best || rank < bestIndex) {
      best = equiv;
      bestIndex = rank;
    }
  }
  const unicode = best ? child(best, 'Unicode') : undefined;
  return unicode ? trimXmlSpace(unicode.text) : '';
}

/** XML whitespace only: a no-break space or other Unicode space at a line's edge is content. */
export function trimXmlSpace(text: string): string {
  return text.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '');
}

/**
 * The region's own text is a transcriber's word on the order of its lines: when the order found
 * disagrees with it, the user is told which lines differ.
 */
function checkLineOrder(
  region: XmlElement,
  id: string,
  lines: readonly ParsedLine[],
  warnings: string[],
): void {
  if (lines.length < 2) return;
  const regionLines = ownText(region)
    .split('\n')
    .map(trimXmlSpace)
    .filter((line) => line !== '');
  const lineTexts = lines.map((line) => line.text);
  if (regionLines.length !== lineTexts.length) return;
  if (regionLines.every((text, i) => text === lineTexts[i])) return;
  const sorted = (texts: string[]) => [...texts].sort().join('\n');
  if (sorted(regionLines) !== sorted(lineTexts)) return;
  // Where each line sits in the region's text (repeated texts take the next free place).
  const used = new Set<number>();
  const places = lineTexts.map((text) => {
    const place = regionLines.findIndex((candidate, i) => candidate === text && !used.has(i));
    used.add(place);
    return place;
  });
  const inPlace = longestIncreasingRun(places);
  const moved = lines
    .map((line, i) => ({ id: line.id, file: i + 1, text: places[i]! + 1 }))
    .filter((_, i) => !inPlace.has(i))
    .map(
      (line) =>
        `${line.id} is line ${line.text} in the region's text, ${line.file} in reading order`,
    );
  warnings.push(`Region ${id}: ${moved.join('; ')}.`);
}

/** Positions of one longest increasing subsequence: the lines that did not move. */
function longestIncreasingRun(values: readonly number[]): Set<number> {
  const length = values.map(() => 1);
  const previous = values.map(() => -1);
  let best = 0;
  for (let i = 0; i < values.length; i++) {
    for (let j = 0; j < i; j++) {
      if (values[j]! < values[i]! && length[j]! + 1 > length[i]!) {
        length[i] = length[j]! + 1;
        previous[i] = j;
      }
    }
    if (length[i]! > length[best]!) best = i;
  }
  const kept = new Set<number>();
  for (let i = best; i >= 0; i = previous[i]!) kept.add(i);
  return kept;
}

/**
 * The ids the ReadingOrder names, in its order: nested groups followed depth-first, ordered
 * groups by @index, unordered ones in file order. Mostly regions; some tools name lines too.
 */
function readingOrderRefs(page: XmlElement): string[] {
  const readingOrder = child(page, 'ReadingOrder');
  if (!readingOrder) return [];
  const refs: string[] = [];
  const visit = (group: XmlElement) => {
    const own = attribute(group, 'regionRef');
    if (own) refs.push(own);
    let members = group.children.filter((c) =>
      /^(RegionRef|RegionRefIndexed|OrderedGroup|OrderedGroupIndexed|UnorderedGroup|UnorderedGroupIndexed)$/.test(
        c.local,
      ),
    );
    if (group.local.startsWith('Ordered')) {
      const indexOf = (c: XmlElement) => {
        const index = Number(attribute(c, 'index') ?? NaN);
        return Number.isFinite(index) ? index : Infinity;
      };
      members = members
        .map((member, position) => ({ member, position, index: indexOf(member) }))
        .sort((a, b) => a.index - b.index || a.position - b.position)
        .map(({ member }) => member);
    }
    for (const member of members) {
      if (member.local.startsWith('RegionRef')) {
        const ref = attribute(member, 'regionRef');
        if (ref) refs.push(ref);
      } else {
        visit(member);
      }
    }
  };
  for (const group of readingOrder.children) visit(group);
  return refs;
}

/**
 * Regions the ReadingOrder names come first, in its order; the rest keep file order. A name
 * that is no region may be a line's (ordered within its region) or nothing the file has.
 */
function applyReadingOrder(
  refs: readonly string[],
  regions: ParsedRegion[],
  warnings: string[],
): ParsedRegion[] {
  if (!refs.length) return regions;
  const byId = new Map(regions.map((region) => [region.id, region]));
  const lineIds = new Set(regions.flatMap((region) => region.lines.map((line) => line.id)));
  const ordered: ParsedRegion[] = [];
  const placed = new Set<ParsedRegion>();
  for (const ref of refs) {
    const region = byId.get(ref);
    if (!region) {
      if (lineIds.has(ref)) continue;
      warnings.push(`The ReadingOrder refers to region ${ref}, which is not in the file.`);
      continue;
    }
    if (placed.has(region)) continue;
    placed.add(region);
    ordered.push(region);
  }
  return [...ordered, ...regions.filter((region) => !placed.has(region))];
}
