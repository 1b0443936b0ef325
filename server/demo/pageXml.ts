import { nowIso } from '../clock';
import type { DemoPage, Point } from './pageImage';

const REGION_TYPES = {
  paragraph: 'paragraph',
  page_number: 'page-number',
  marginalia: 'marginalia',
} as const;

function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

function points(polygon: readonly Point[]): string {
  // PAGE rings are open: the closing point is implied.
  const open = polygon.slice(0, -1);
  return open.map(([x, y]) => `${x},${y}`).join(' ');
}

/**
 * A PAGE 2019 description of a generated page, so the demo project is made by the same
 * importer as the user's own files. PAGE requires Created and LastChange in the Metadata: both
 * are the moment the page was generated.
 */
export function demoPageXml(page: DemoPage, imageFilename: string, created = nowIso()): string {
  const regions = page.regions.map((region, r) => {
    const lines = region.lines.map(
      (line, l) => `      <TextLine id="r${r}l${l}">
        <Coords points="${points(line.polygon)}"/>
        <Baseline points="${line.baseline.map(([x, y]) => `${x},${y}`).join(' ')}"/>
        <TextEquiv><Unicode>${escapeXml(line.text)}</Unicode></TextEquiv>
      </TextLine>`,
    );
    return `    <TextRegion id="r${r}" type="${REGION_TYPES[region.type]}">
      <Coords points="${points(region.polygon)}"/>
${lines.join('\n')}
    </TextRegion>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>
<PcGts xmlns="http://schema.primaresearch.org/PAGE/gts/pagecontent/2019-07-15">
  <Metadata>
    <Creator>Folia demo</Creator>
    <Created>${created}</Created>
    <LastChange>${created}</LastChange>
  </Metadata>
  <Page imageFilename="${escapeXml(imageFilename)}" imageWidth="${page.width}" imageHeight="${page.height}">
${regions.join('\n')}
  </Page>
</PcGts>
`;
}
