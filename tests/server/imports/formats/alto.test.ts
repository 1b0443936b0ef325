import { describe, expect, it } from 'vitest';
import { parseAlto } from '../../../../server/imports/formats/alto';
import { ImportFormatError } from '../../../../server/imports/formats/types';

const NS_V4 = 'http://www.loc.gov/standards/alto/ns-v4#';

function alto(
  layout: string,
  options: { ns?: string; unit?: string | null; fileName?: string | null; tags?: string } = {},
): string {
  const unit = options.unit === undefined ? 'pixel' : options.unit;
  const fileName = options.fileName === undefined ? 'scan.jpg' : options.fileName;
  return `<?xml version="1.0" encoding="UTF-8"?>
<alto xmlns="${options.ns ?? NS_V4}">
  <Description>
    ${unit === null ? '' : `<MeasurementUnit>${unit}</MeasurementUnit>`}
    <sourceImageInformation>${fileName === null ? '' : `<fileName>${fileName}</fileName>`}</sourceImageInformation>
  </Description>
  <Tags>${options.tags ?? ''}</Tags>
  <Layout>${layout}</Layout>
</alto>`;
}

describe('parseAlto', () => {
  it('reads blocks, lines, baselines and text in pixels', () => {
    const page = parseAlto(
      alto(
        `<Page ID="p" WIDTH="1000" HEIGHT="800" PHYSICAL_IMG_NR="1"><PrintSpace HPOS="0" VPOS="0" WIDTH="1000" HEIGHT="800">
          <TextBlock ID="b1" TAGREFS="BT1" HPOS="10" VPOS="10" WIDTH="200" HEIGHT="100">
            <Shape><Polygon POINTS="10 10 210 10 210 110 10 110"/></Shape>
            <TextLine ID="l1" TAGREFS="LT1" BASELINE="12 40 200 38" HPOS="12" VPOS="12" WIDTH="188" HEIGHT="30">
              <Shape><Polygon POINTS="12 12 200 12 200 42 12 42"/></Shape>
              <String CONTENT=" Amoiselle  sapience " HPOS="12" VPOS="12" WIDTH="188" HEIGHT="30"/>
            </TextLine>
          </TextBlock>
        </PrintSpace></Page>`,
        {
          tags:
            '<OtherTag ID="BT1" LABEL="MainZone" DESCRIPTION="block type MainZone"/>' +
            '<OtherTag ID="LT1" LABEL="DefaultLine" DESCRIPTION="line type DefaultLine"/>',
        },
      ),
    );
    expect(page).toEqual({
      format: 'alto-4',
      imageFilename: 'scan.jpg',
      width: 1000,
      height: 800,
      warnings: [],
      regions: [
        {
          id: 'b1',
          kind: 'text',
          element: 'TextBlock',
          type: 'main_zone',
          typeLabel: 'MainZone',
          polygon: [
            [10, 10],
            [210, 10],
            [210, 110],
            [10, 110],
            [10, 10],
          ],
          lines: [
            {
              id: 'l1',
              polygon: [
                [12, 12],
                [200, 12],
                [200, 42],
                [12, 42],
                [12, 12],
              ],
              baseline: [
                [12, 40],
                [200, 38],
              ],
              text: 'Amoiselle  sapience',
            },
          ],
        },
      ],
    });
  });

  it('types blocks from OtherTag before other tags, then TYPE, then the element name', () => {
    const block = (id: string, attrs: string) =>
      `<TextBlock ID="${id}" ${attrs} HPOS="0" VPOS="0" WIDTH="10" HEIGHT="10"/>`;
    const page = parseAlto(
      alto(
        `<Page ID="p" WIDTH="100" HEIGHT="100" PHYSICAL_IMG_NR="1"><PrintSpace>
          ${block('tagged', 'TAGREFS="NE1 BT1"')}
          ${block('layout', 'TAGREFS="LY1"')}
          ${block('dangling', 'TAGREFS="nowhere"')}
          ${block('plain', '')}
          <Illustration ID="ill" TYPE="map" HPOS="0" VPOS="0" WIDTH="10" HEIGHT="10"/>
          <GraphicalElement ID="rule" HPOS="0" VPOS="0" WIDTH="10" HEIGHT="2"/>
        </PrintSpace></Page>`,
        {
          tags:
            '<NamedEntityTag ID="NE1" LABEL="Person"/><OtherTag ID="BT1" LABEL="NumberingZone"/>' +
            '<LayoutTag ID="LY1" LABEL="Running title"/>',
        },
      ),
    );
    expect(page.regions.map((r) => [r.id, r.kind, r.element, r.type, r.typeLabel])).toEqual([
      ['tagged', 'text', 'TextBlock', 'numbering_zone', 'NumberingZone'],
      ['layout', 'text', 'TextBlock', 'running_title', 'Running title'],
      ['dangling', 'text', 'TextBlock', 'text_region', 'TextRegion'],
      ['plain', 'text', 'TextBlock', 'text_region', 'TextRegion'],
      ['ill', 'other', 'Illustration', 'map', 'map'],
      ['rule', 'other', 'GraphicalElement', 'graphical_element', 'GraphicalElement'],
    ]);
  });

  it('reads ALTO v2: boxes instead of shapes, SP and HYP, a one-number BASELINE, blocks in margins and ComposedBlocks', () => {
    const page = parseAlto(
      alto(
        `<Page ID="p" WIDTH="500" HEIGHT="400" PHYSICAL_IMG_NR="1">
          <TopMargin><TextBlock ID="head" HPOS="10" VPOS="5" WIDTH="100" HEIGHT="20"/></TopMargin>
          <PrintSpace>
            <ComposedBlock ID="cb">
              <TextBlock ID="body" HPOS="10" VPOS="50" WIDTH="300" HEIGHT="60">
                <TextLine ID="l1" HPOS="10" VPOS="50" WIDTH="300" HEIGHT="30" BASELINE="75">
                  <String CONTENT="Die" HPOS="10" VPOS="50" WIDTH="40" HEIGHT="30"/><SP WIDTH="5"/>
                  <String CONTENT="Frau" HPOS="55" VPOS="50" WIDTH="50" HEIGHT="30"/>
                  <String CONTENT="und" HPOS="110" VPOS="50" WIDTH="40" HEIGHT="30"/><SP/>
                  <String CONTENT="der" HPOS="155" VPOS="50" WIDTH="40" HEIGHT="30"/><SP/>
                  <String CONTENT="Sozia" HPOS="200" VPOS="50" WIDTH="90" HEIGHT="30"/><HYP CONTENT="-"/>
                </TextLine>
                <TextLine ID="l2" HPOS="10" VPOS="80" WIDTH="300" HEIGHT="30"/>
              </TextBlock>
            </ComposedBlock>
          </PrintSpace>
        </Page>`,
        { ns: 'http://www.loc.gov/standards/alto/ns-v2#' },
      ),
    );
    expect(page.format).toBe('alto-4');
    expect(page.warnings).toEqual([]);
    expect(page.regions.map((r) => r.id)).toEqual(['head', 'body']);
    const [l1, l2] = page.regions[1]!.lines;
    expect(l1).toEqual({
      id: 'l1',
      polygon: [
        [10, 50],
        [310, 50],
        [310, 80],
        [10, 80],
        [10, 50],
      ],
      baseline: [
        [10, 75],
        [310, 75],
      ],
      text: 'Die Frau und der Sozia-',
    });
    expect(l2).toMatchObject({ id: 'l2', baseline: null, text: '' });
  });

  it('converts mm10 to pixels with the given resolution', () => {
    const page = parseAlto(
      alto(
        `<Page ID="p" WIDTH="2100" HEIGHT="2970" PHYSICAL_IMG_NR="1"><PrintSpace>
          <TextBlock ID="b" HPOS="254" VPOS="508" WIDTH="254" HEIGHT="127">
            <TextLine ID="l" BASELINE="254 600 508 600" HPOS="254" VPOS="508" WIDTH="254" HEIGHT="127">
              <Shape><Polygon POINTS="254 508 508 508 508 635 254 635"/></Shape>
              <String CONTENT="x"/></TextLine>
          </TextBlock></PrintSpace></Page>`,
        { unit: 'mm10' },
      ),
      { dpi: 300 },
    );
    // 254 tenths of a millimetre are one inch, 300 pixels at 300 dpi.
    expect([page.width, page.height]).toEqual([2480, 3508]);
    expect(page.warnings).toEqual([]);
    expect(page.regions[0]!.polygon).toEqual([
      [300, 600],
      [600, 600],
      [600, 750],
      [300, 750],
      [300, 600],
    ]);
    expect(page.regions[0]!.lines[0]!.baseline).toEqual([
      [300, 709],
      [600, 709],
    ]);
  });

  it('converts inch1200 with the resolution, or mm10 by the image size when no resolution is known', () => {
    const layout = (width: number, height: number) =>
      `<Page ID="p" WIDTH="${width}" HEIGHT="${height}" PHYSICAL_IMG_NR="1"><PrintSpace>
        <TextBlock ID="b" HPOS="1200" VPOS="600" WIDTH="300" HEIGHT="300"/></PrintSpace></Page>`;
    const inch = parseAlto(alto(layout(12000, 18000), { unit: 'inch1200' }), { dpi: 400 });
    expect([inch.width, inch.height]).toEqual([4000, 6000]);
    expect(inch.regions[0]!.polygon[0]).toEqual([400, 200]);

    const bySize = parseAlto(alto(layout(2000, 3000), { unit: 'mm10' }), {
      imageSize: { width: 1000, height: 1000 },
    });
    expect([bySize.width, bySize.height]).toEqual([1000, 1000]);
    expect(bySize.regions[0]!.polygon.slice(0, 3)).toEqual([
      [600, 200],
      [750, 200],
      [750, 300],
    ]);
  });

  it('leaves mm10 unconverted, with a warning, when neither resolution nor image size is known', () => {
    const page = parseAlto(
      alto(
        `<Page ID="p" WIDTH="2100" HEIGHT="2970" PHYSICAL_IMG_NR="1"><PrintSpace>
          <TextBlock ID="b" HPOS="254" VPOS="508" WIDTH="254" HEIGHT="127"/></PrintSpace></Page>`,
        { unit: 'mm10' },
      ),
    );
    expect([page.width, page.height]).toEqual([2100, 2970]);
    expect(page.regions[0]!.polygon[0]).toEqual([254, 508]);
    expect(page.warnings).toEqual([
      'Coordinates are in mm10 and no resolution is known; they were left unconverted and will not match the image.',
    ]);
  });

  it('warns about a missing unit or file name and reads pixels', () => {
    const page = parseAlto(
      alto('<Page ID="p" WIDTH="10" HEIGHT="10" PHYSICAL_IMG_NR="1"/>', {
        unit: null,
        fileName: null,
      }),
    );
    expect(page.imageFilename).toBe('');
    expect([page.width, page.height]).toEqual([10, 10]);
    expect(page.warnings).toEqual([
      'The file declares no MeasurementUnit; coordinates are read as pixels.',
      'The file names no image (sourceImageInformation/fileName).',
    ]);
  });

  it('falls back to the box for a degenerate polygon and skips a line with neither', () => {
    const page = parseAlto(
      alto(
        `<Page ID="p" WIDTH="100" HEIGHT="100" PHYSICAL_IMG_NR="1"><PrintSpace>
          <TextBlock ID="b" HPOS="0" VPOS="0" WIDTH="50" HEIGHT="50">
            <TextLine ID="flat" HPOS="1" VPOS="2" WIDTH="30" HEIGHT="10">
              <Shape><Polygon POINTS="1 2 31 2"/></Shape><String CONTENT="kept"/></TextLine>
            <TextLine ID="lost"><String CONTENT="no geometry"/></TextLine>
          </TextBlock>
          <Illustration ID="nothing"/>
        </PrintSpace></Page>`,
      ),
    );
    expect(page.regions.map((r) => r.id)).toEqual(['b']);
    expect(page.regions[0]!.lines.map((l) => [l.id, l.text, l.polygon[2]])).toEqual([
      ['flat', 'kept', [31, 12]],
    ]);
    expect(page.warnings).toEqual([
      'TextLine flat: its Polygon has fewer than three distinct points or no area; its HPOS/VPOS/WIDTH/HEIGHT box is used instead.',
      'TextLine lost in block b skipped: it has neither a Polygon nor a box.',
      'Illustration nothing skipped: it has neither a Polygon nor a box.',
    ]);
  });

  describe('refuses files it cannot read', () => {
    const refuse = (xml: string, message: RegExp) => {
      expect(() => parseAlto(xml)).toThrow(ImportFormatError);
      expect(() => parseAlto(xml)).toThrow(message);
    };

    it('a missing image size', () => {
      refuse(
        alto('<Page ID="p" WIDTH="100" PHYSICAL_IMG_NR="1"/>'),
        /image size \(Page@WIDTH and Page@HEIGHT\)/,
      );
      refuse(alto('<Page ID="p" WIDTH="100" HEIGHT="" PHYSICAL_IMG_NR="1"/>'), /image size/);
    });

    it('no Page, or several', () => {
      refuse(alto(''), /no Layout\/Page/);
      refuse(
        alto(
          '<Page ID="a" WIDTH="1" HEIGHT="1" PHYSICAL_IMG_NR="1"/><Page ID="b" WIDTH="1" HEIGHT="1" PHYSICAL_IMG_NR="2"/>',
        ),
        /2 Page elements/,
      );
    });

    it('a PAGE file, and malformed XML', () => {
      refuse(
        '<PcGts xmlns="http://schema.primaresearch.org/PAGE/gts/pagecontent/2019-07-15"/>',
        /a PAGE XML file, not <alto>/,
      );
      refuse('<alto><Layout></alto>', /not well-formed XML/);
    });
  });
});

describe('parseAlto line order', () => {
  const lines = (readingOrder: string) => `<?xml version="1.0" encoding="UTF-8"?>
<alto xmlns="${NS_V4}">
  <Description><MeasurementUnit>pixel</MeasurementUnit></Description>
  ${readingOrder}
  <Layout><Page ID="page_1" WIDTH="1000" HEIGHT="800" PHYSICAL_IMG_NR="1"><PrintSpace>
    <TextBlock ID="b1"><Shape><Polygon POINTS="10 10 900 10 900 700 10 700"/></Shape>
      <TextLine ID="low"><Shape><Polygon POINTS="20 400 800 400 800 440 20 440"/></Shape><String CONTENT="entry"/></TextLine>
      <TextLine ID="high"><Shape><Polygon POINTS="500 100 800 100 800 140 500 140"/></Shape><String CONTENT="continuation"/></TextLine>
    </TextBlock>
  </PrintSpace></Page></Layout>
</alto>`;
  const texts = (xml: string) => parseAlto(xml).regions[0]!.lines.map((line) => line.text);

  it('follows a ReadingOrder that names every line of a block', () => {
    const order = `<ReadingOrder><OrderedGroup ID="g"><ElementRef ID="r1" REF="b1"/>
      <OrderedGroup ID="g2"><ElementRef ID="r2" REF="low high"/></OrderedGroup></OrderedGroup></ReadingOrder>`;
    expect(texts(lines(order))).toEqual(['entry', 'continuation']);
  });

  it('reads lines by position without one, or when it leaves a line out', () => {
    expect(texts(lines(''))).toEqual(['continuation', 'entry']);
    const partial = `<ReadingOrder><OrderedGroup ID="g"><ElementRef ID="r1" REF="low"/></OrderedGroup></ReadingOrder>`;
    expect(texts(lines(partial))).toEqual(['continuation', 'entry']);
  });
});
