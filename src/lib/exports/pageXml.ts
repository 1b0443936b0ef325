/**
 * PAGE XML 2019-07-15 of one page: Metadata, the image, a ReadingOrder naming every region in
 * order, and the regions with their lines (Coords, Baseline when known, TextEquiv). Valid
 * against page-2019-07-15.xsd, and read back by Folia's importer as the same elements: each
 * region's type is written in custom="structure {type:…;}" (the importer's first choice), plus
 * PAGE's own @type when the type is one of PAGE's; lines carry @index so their order is kept.
 */
import { slugifyType } from './typeSlug';
import { type LayoutRegion, type PageLayout } from './layout';
import { onImage, openRing, pagePoints } from './points';
import { xmlDateTime } from './xmlDate';
import { escapeXmlText, xmlAttributes } from './xmlText';

export const PAGE_2019_NAMESPACE =
  'http://schema.primaresearch.org/PAGE/gts/pagecontent/2019-07-15';

/** PAGE's TextRegion@type values by the slug the importer makes of them. */
const TEXT_TYPES = new Map(
  [
    'paragraph',
    'heading',
    'caption',
    'header',
    'footer',
    'page-number',
    'drop-capital',
    'credit',
    'floating',
    'signature-mark',
    'catch-word',
    'marginalia',
    'footnote',
    'footnote-continued',
    'endnote',
    'TOC-entry',
    'list-label',
    'other',
  ].map((value) => [slugifyType(value), value] as const),
);

/** PAGE's GraphicRegion@type values by slug ('other' stays a text type). */
const GRAPHIC_TYPES = new Map(
  [
    'logo',
    'letterhead',
    'decoration',
    'frame',
    'handwritten-annotation',
    'stamp',
    'signature',
    'barcode',
    'paper-grow',
    'punch-hole',
  ].map((value) => [slugifyType(value), value] as const),
);

/** PAGE's other region elements by the slug the importer makes of an untyped one. */
const REGION_ELEMENTS = new Map(
  [
    'ImageRegion',
    'LineDrawingRegion',
    'GraphicRegion',
    'TableRegion',
    'ChartRegion',
    'MapRegion',
    'SeparatorRegion',
    'MathsRegion',
    'ChemRegion',
    'MusicRegion',
    'AdvertRegion',
    'NoiseRegion',
    'UnknownRegion',
    'CustomRegion',
  ].map((element) => [slugifyType(element), element] as const),
);

export interface PageXmlOptions {
  /** Metadata/Creator; 'Folia' by default. */
  creator?: string;
}

/** The XML element and @type a region is written as. A region with lines is a TextRegion. */
function regionElement(region: LayoutRegion): { element: string; type?: string } {
  if (region.lines.length === 0) {
    const element = REGION_ELEMENTS.get(region.type);
    if (element) return { element };
    const graphic = GRAPHIC_TYPES.get(region.type);
    if (graphic) return { element: 'GraphicRegion', type: graphic };
  }
  return { element: 'TextRegion', type: TEXT_TYPES.get(region.type) };
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

function textEquiv(text: string | null, indent: string): string[] {
  if (text === null || text === '') return [];
  return [`${indent}<TextEquiv><Unicode>${escapeXmlText(text)}</Unicode></TextEquiv>`];
}

export function writePageXml(layout: PageLayout, options: PageXmlOptions = {}): string {
  const image = { width: layout.width, height: layout.height };
  const id = idMaker();
  const regionIds = layout.regions.map((region) => id(region.wrapper ? 'w' : 'r', region.id));
  const out: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<PcGts${xmlAttributes({
      xmlns: PAGE_2019_NAMESPACE,
      'xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance',
      'xsi:schemaLocation': `${PAGE_2019_NAMESPACE} ${PAGE_2019_NAMESPACE}/pagecontent.xsd`,
    })}>`,
    '  <Metadata>',
    `    <Creator>${escapeXmlText(options.creator ?? 'Folia')}</Creator>`,
    `    <Created>${xmlDateTime(layout.created)}</Created>`,
    `    <LastChange>${xmlDateTime(layout.lastChange)}</LastChange>`,
    '  </Metadata>',
    `  <Page${xmlAttributes({
      imageFilename: layout.imageFilename,
      imageWidth: layout.width,
      imageHeight: layout.height,
    })}>`,
  ];
  if (regionIds.length > 0) {
    out.push('    <ReadingOrder>', '      <OrderedGroup id="reading_order" caption="Regions">');
    regionIds.forEach((regionRef, index) =>
      out.push(`        <RegionRefIndexed${xmlAttributes({ index, regionRef })}/>`),
    );
    out.push('      </OrderedGroup>', '    </ReadingOrder>');
  }
  layout.regions.forEach((region, r) => {
    const { element, type } = regionElement(region);
    out.push(
      `    <${element}${xmlAttributes({
        id: regionIds[r],
        custom: `structure {type:${region.typeLabel};}`,
        type,
      })}>`,
      `      <Coords points="${pagePoints(openRing(region.polygon, image))}"/>`,
    );
    region.lines.forEach((line, index) => {
      out.push(
        `      <TextLine${xmlAttributes({ id: id('l', line.id), index })}>`,
        `        <Coords points="${pagePoints(openRing(line.polygon, image))}"/>`,
      );
      if (line.baseline && line.baseline.length >= 2) {
        out.push(`        <Baseline points="${pagePoints(onImage(line.baseline, image))}"/>`);
      }
      out.push(...textEquiv(line.text, '        '), '      </TextLine>');
    });
    if (element === 'TextRegion') out.push(...textEquiv(region.text, '      '));
    out.push(`    </${element}>`);
  });
  out.push('  </Page>', '</PcGts>', '');
  return out.join('\n');
}
