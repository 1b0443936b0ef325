/**
 * The order of a region's lines at import: an explicit order when the file has one, else their
 * position in the direction the text reads, never the order a tool happened to write them in.
 */
import { describe, expect, it } from 'vitest';
import { parseAlto } from '../../../../server/imports/formats/alto';
import { parsePageXml } from '../../../../server/imports/formats/pagexml';

const NS = 'http://schema.primaresearch.org/PAGE/gts/pagecontent/2019-07-15';

function page(body: string, creator = 'Aletheia'): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<PcGts xmlns="${NS}"><Metadata><Creator>${creator}</Creator></Metadata>
  <Page imageFilename="title.jpg" imageWidth="2000" imageHeight="3000">${body}</Page>
</PcGts>`;
}

/** A TextLine with a box polygon (x, y, width, height) and its text. */
function line(id: string, x: number, y: number, w: number, h: number, attributes = '') {
  return `<TextLine id="${id}" ${attributes}>
    <Coords points="${x},${y} ${x + w},${y} ${x + w},${y + h} ${x},${y + h}"/>
    <TextEquiv><Unicode>${id}</Unicode></TextEquiv>
  </TextLine>`;
}

function region(lines: string, attributes = '') {
  return `<TextRegion id="r1" ${attributes}>
    <Coords points="0,0 2000,0 2000,3000 0,3000"/>${lines}
  </TextRegion>`;
}

const texts = (xml: string) => parsePageXml(xml).regions[0]!.lines.map((l) => l.text);

/**
 * A title page as Aletheia leaves it when lines are drawn late: the author's name and the date
 * were added last, so the file lists them after the publisher.
 */
const TITLE_PAGE = [
  line('title', 400, 300, 1200, 200),
  line('subtitle', 600, 600, 800, 100),
  line('publisher', 500, 2500, 1000, 100),
  line('author', 700, 1200, 600, 120),
  line('date', 850, 2700, 300, 80),
  line('place', 800, 2300, 400, 90),
].join('');

describe('line order at import', () => {
  it('reads the lines of a title page listed out of order top to bottom', () => {
    expect(texts(page(region(TITLE_PAGE)))).toEqual([
      'title',
      'subtitle',
      'author',
      'place',
      'publisher',
      'date',
    ]);
  });

  it('reads a row cut in two (lines side by side) in the reading direction', () => {
    const lines = [
      line('second row', 100, 400, 1500, 100),
      line('right half', 1100, 105, 700, 90),
      line('left half', 100, 100, 900, 100),
    ].join('');
    expect(texts(page(region(lines)))).toEqual(['left half', 'right half', 'second row']);
    // Right-to-left text (Hebrew, Arabic): the right half is read first.
    expect(texts(page(region(lines, 'readingDirection="right-to-left"')))).toEqual([
      'right half',
      'left half',
      'second row',
    ]);
    // Said by the page for all its regions.
    expect(
      texts(page(region(lines)).replace('<Page ', '<Page readingDirection="right-to-left" ')),
    ).toEqual(['right half', 'left half', 'second row']);
  });

  it('reads vertical text in columns from right to left, each from the top', () => {
    const columns = [
      line('left column', 200, 100, 100, 1500),
      line('right column', 800, 100, 100, 1500),
      line('middle column, bottom', 500, 1000, 100, 600),
      line('middle column, top', 500, 100, 100, 800),
    ].join('');
    expect(texts(page(region(columns, 'readingDirection="top-to-bottom"')))).toEqual([
      'right column',
      'middle column, top',
      'middle column, bottom',
      'left column',
    ]);
    // Mongolian script runs its columns left to right: textLineOrder says so.
    expect(
      texts(
        page(region(columns, 'readingDirection="top-to-bottom" textLineOrder="left-to-right"')),
      ),
    ).toEqual(['left column', 'middle column, top', 'middle column, bottom', 'right column']);
  });

  it('follows a ReadingOrder that names every line, without calling them missing regions', () => {
    const order = `<ReadingOrder><OrderedGroup id="g1">
      <RegionRefIndexed index="0" regionRef="r1"/>
      <OrderedGroup id="g2" index="1">
        <RegionRefIndexed index="2" regionRef="date"/>
        <RegionRefIndexed index="0" regionRef="publisher"/>
        <RegionRefIndexed index="1" regionRef="place"/>
        <RegionRefIndexed index="3" regionRef="title"/>
        <RegionRefIndexed index="4" regionRef="subtitle"/>
        <RegionRefIndexed index="5" regionRef="author"/>
      </OrderedGroup>
    </OrderedGroup></ReadingOrder>`;
    const parsed = parsePageXml(page(order + region(TITLE_PAGE)));
    expect(parsed.regions[0]!.lines.map((l) => l.text)).toEqual([
      'publisher',
      'place',
      'date',
      'title',
      'subtitle',
      'author',
    ]);
    expect(parsed.warnings).toEqual([]);
  });

  it("follows the lines' own indexes when each has one (PAGE 2019 @index, Transkribus custom)", () => {
    const indexed = [
      line('c', 100, 100, 500, 100, 'index="2"'),
      line('a', 100, 300, 500, 100, 'index="0"'),
      line('b', 100, 500, 500, 100, 'index="1"'),
    ].join('');
    expect(texts(page(region(indexed)))).toEqual(['a', 'b', 'c']);
    const custom = [
      line('c', 100, 100, 500, 100, 'custom="readingOrder {index:2;}"'),
      line('a', 100, 300, 500, 100, 'custom="readingOrder {index:0;} structure {type:x;}"'),
      line('b', 100, 500, 500, 100, 'custom="readingOrder {index:1;}"'),
    ].join('');
    expect(texts(page(region(custom)))).toEqual(['a', 'b', 'c']);
    // Half an order says nothing of the rest: position decides.
    const partial = [
      line('b', 100, 500, 500, 100, 'index="1"'),
      line('c', 100, 100, 500, 100, 'index="2"'),
      line('a', 100, 300, 500, 100),
    ].join('');
    expect(texts(page(region(partial)))).toEqual(['c', 'a', 'b']);
  });

  it("keeps eScriptorium's file order, which its transcribers set", () => {
    expect(texts(page(region(TITLE_PAGE), 'escriptorium'))).toEqual([
      'title',
      'subtitle',
      'publisher',
      'author',
      'date',
      'place',
    ]);
  });

  it('reads ALTO lines by their position, unless eScriptorium wrote the file', () => {
    const altoLine = (id: string, y: number) =>
      `<TextLine ID="${id}" HPOS="100" VPOS="${y}" WIDTH="800" HEIGHT="80"><String CONTENT="${id}"/></TextLine>`;
    const alto = (pageId: string) => `<?xml version="1.0" encoding="UTF-8"?>
<alto xmlns="http://www.loc.gov/standards/alto/ns-v4#">
  <Description><MeasurementUnit>pixel</MeasurementUnit>
    <sourceImageInformation><fileName>p.jpg</fileName></sourceImageInformation></Description>
  <Layout><Page ID="${pageId}" WIDTH="1000" HEIGHT="1000"><PrintSpace>
    <TextBlock ID="b1" HPOS="0" VPOS="0" WIDTH="1000" HEIGHT="1000">
      ${altoLine('third', 700)}${altoLine('first', 100)}${altoLine('second', 400)}
    </TextBlock>
  </PrintSpace></Page></Layout>
</alto>`;
    const lines = (xml: string) => parseAlto(xml).regions[0]!.lines.map((l) => l.text);
    expect(lines(alto('page1'))).toEqual(['first', 'second', 'third']);
    expect(lines(alto('eSc_dummypage_'))).toEqual(['third', 'first', 'second']);
  });
});
