/**
 * ALTO 4.4 of one page, in pixels: the image, the region types as OtherTags (the importer's first
 * choice for a block's type), a ReadingOrder, and in the PrintSpace the regions in order — text
 * regions as TextBlocks with their TextLines, separators as GraphicalElements, graphics as
 * Illustrations — each with its Shape/Polygon and HPOS/VPOS/WIDTH/HEIGHT box. A line's text is
 * one String whose CONTENT is the whole text: split into words, runs of spaces would be lost.
 */
import { slugifyType } from './typeSlug';
import { type LayoutLine, type LayoutRegion, type PageLayout } from './layout';
import { altoBox, altoPoints, onImage, openRing } from './points';
import { xmlDateTime } from './xmlDate';
import { escapeXmlText, xmlAttributes } from './xmlText';

export const ALTO_4_NAMESPACE = 'http://www.loc.gov/standards/alto/ns-v4#';

const SEPARATOR_TYPES = new Set(['separator_region', 'separator', 'graphical_element']);
const ILLUSTRATION_TYPES = new Set(
  [
    'ImageRegion',
    'GraphicRegion',
    'LineDrawingRegion',
    'ChartRegion',
    'MapRegion',
    'Illustration',
    'logo',
    'letterhead',
    'decoration',
    'frame',
    'stamp',
    'signature',
    'barcode',
  ].map(slugifyType),
);

export interface AltoOptions {
  /** processingSoftware/softwareName; 'Folia' by default. */
  software?: string;
}

/** The block element a region is written as. A region with lines is a TextBlock. */
function blockElement(region: LayoutRegion): string {
  if (region.lines.length === 0) {
    if (SEPARATOR_TYPES.has(region.type)) return 'GraphicalElement';
    if (ILLUSTRATION_TYPES.has(region.type)) return 'Illustration';
  }
  return 'TextBlock';
}

/** xs:ID values: the element ids with a letter in front, unique within the file. */
function idMaker(): (prefix: string, id: string) => string {
  const used = new Set<string>();
  return (prefix, id) => {
    let candidate = `${prefix}_${id}`;
    for (let n = 2; used.has(candidate); n++) candidate = `${prefix}_${id}_${n}`;
    used.add(candidate);
    return candidate;
  };
}

export function writeAlto(layout: PageLayout, options: AltoOptions = {}): string {
  const image = { width: layout.width, height: layout.height };
  const id = idMaker();
  const tagIds = new Map<string, string>();
  for (const region of layout.regions) {
    if (!tagIds.has(region.typeLabel)) tagIds.set(region.typeLabel, `type_${tagIds.size + 1}`);
  }
  const blocks = layout.regions.map((region) => ({
    region,
    id: id(region.wrapper ? 'w' : 'r', region.id),
    lines: region.lines.map((line) => ({ line, id: id('l', line.id) })),
  }));

  const out: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<alto${xmlAttributes({
      xmlns: ALTO_4_NAMESPACE,
      'xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance',
      'xsi:schemaLocation': `${ALTO_4_NAMESPACE} http://www.loc.gov/standards/alto/v4/alto-4-4.xsd`,
      SCHEMAVERSION: '4.4',
    })}>`,
    '  <Description>',
    '    <MeasurementUnit>pixel</MeasurementUnit>',
    '    <sourceImageInformation>',
    `      <fileName>${escapeXmlText(layout.imageFilename)}</fileName>`,
    '    </sourceImageInformation>',
    '    <Processing ID="processing_1">',
    `      <processingDateTime>${xmlDateTime(layout.lastChange)}</processingDateTime>`,
    '      <processingSoftware>',
    `        <softwareName>${escapeXmlText(options.software ?? 'Folia')}</softwareName>`,
    '      </processingSoftware>',
    '    </Processing>',
    '  </Description>',
  ];
  if (tagIds.size > 0) {
    out.push('  <Tags>');
    for (const [label, tagId] of tagIds) {
      out.push(
        `    <OtherTag${xmlAttributes({ ID: tagId, LABEL: label, DESCRIPTION: `block type ${label}` })}/>`,
      );
    }
    out.push('  </Tags>');
  }
  if (blocks.length > 0) {
    // Blocks in order, each followed by its lines in order.
    out.push('  <ReadingOrder>', '    <OrderedGroup ID="reading_order">');
    let n = 0;
    for (const block of blocks) {
      for (const ref of [block.id, ...block.lines.map((line) => line.id)]) {
        n += 1;
        out.push(`      <ElementRef${xmlAttributes({ ID: `reading_order_${n}`, REF: ref })}/>`);
      }
    }
    out.push('    </OrderedGroup>', '  </ReadingOrder>');
  }
  out.push(
    '  <Layout>',
    `    <Page${xmlAttributes({ ID: 'page_1', PHYSICAL_IMG_NR: 1, WIDTH: layout.width, HEIGHT: layout.height })}>`,
    `      <PrintSpace${xmlAttributes({ HPOS: 0, VPOS: 0, WIDTH: layout.width, HEIGHT: layout.height })}>`,
  );
  for (const block of blocks) {
    const element = blockElement(block.region);
    const ring = openRing(block.region.polygon, image);
    out.push(
      `        <${element}${xmlAttributes({
        ID: block.id,
        ...altoBox(ring),
        TAGREFS: tagIds.get(block.region.typeLabel),
      })}>`,
      `          <Shape><Polygon POINTS="${altoPoints(ring)}"/></Shape>`,
    );
    for (const { line, id: lineId } of block.lines) out.push(...textLine(line, lineId, image));
    out.push(`        </${element}>`);
  }
  out.push('      </PrintSpace>', '    </Page>', '  </Layout>', '</alto>', '');
  return out.join('\n');
}

function textLine(
  line: LayoutLine,
  id: string,
  image: { width: number; height: number },
): string[] {
  const ring = openRing(line.polygon, image);
  const box = altoBox(ring);
  const baseline =
    line.baseline && line.baseline.length >= 2
      ? altoPoints(onImage(line.baseline, image))
      : undefined;
  return [
    `          <TextLine${xmlAttributes({ ID: id, ...box, BASELINE: baseline })}>`,
    `            <Shape><Polygon POINTS="${altoPoints(ring)}"/></Shape>`,
    // ALTO requires a String in every line; an empty CONTENT is read back as no text.
    `            <String${xmlAttributes({ CONTENT: line.text ?? '', ...box })}/>`,
    '          </TextLine>',
  ];
}
