import { describe, expect, it } from 'vitest';
import { customStructureType, parsePageXml } from '../../../../server/imports/formats/pagexml';
import { ImportFormatError, slugifyType } from '../../../../server/imports/formats/types';

const NS_2013 = 'http://schema.primaresearch.org/PAGE/gts/pagecontent/2013-07-15';
const NS_2019 = 'http://schema.primaresearch.org/PAGE/gts/pagecontent/2019-07-15';

function pageXml(body: string, options: { ns?: string | null; page?: string } = {}): string {
  const ns = options.ns === undefined ? NS_2019 : options.ns;
  const xmlns = ns === null ? '' : ` xmlns="${ns}"`;
  const page = options.page ?? 'imageFilename="scan.jpg" imageWidth="1000" imageHeight="800"';
  return `<?xml version="1.0" encoding="UTF-8"?>
<PcGts${xmlns}><Metadata><Creator>test</Creator></Metadata>
  <Page ${page}>${body}</Page>
</PcGts>`;
}

const box = (x: number, y: number) =>
  `<Coords points="${x},${y} ${x + 100},${y} ${x + 100},${y + 50} ${x},${y + 50}"/>`;

describe('parsePageXml', () => {
  it('reads a PAGE 2013 file (Transkribus namespace)', () => {
    const page = parsePageXml(
      pageXml(
        `<TextRegion id="r1" type="paragraph" custom="readingOrder {index:0;} structure {type:paragraph;}">
          ${box(10, 10)}
          <TextLine id="r1l1" custom="readingOrder {index:0;}">
            <Coords points="10,10 110,10 110,40 10,40"/>
            <Baseline points="10,35 110,35"/>
            <Word id="w1"><Coords points="10,10 50,10 50,40 10,40"/>
              <TextEquiv><Unicode>Word-level</Unicode></TextEquiv></Word>
            <TextEquiv><Unicode>  Line text  </Unicode></TextEquiv>
          </TextLine>
          <TextEquiv><Unicode>Region-level text</Unicode></TextEquiv>
        </TextRegion>`,
        { ns: NS_2013 },
      ),
    );
    expect(page).toEqual({
      format: 'page-2013',
      imageFilename: 'scan.jpg',
      width: 1000,
      height: 800,
      warnings: [],
      regions: [
        {
          id: 'r1',
          kind: 'text',
          element: 'TextRegion',
          type: 'paragraph',
          typeLabel: 'paragraph',
          polygon: [
            [10, 10],
            [110, 10],
            [110, 60],
            [10, 60],
            [10, 10],
          ],
          lines: [
            {
              id: 'r1l1',
              polygon: [
                [10, 10],
                [110, 10],
                [110, 40],
                [10, 40],
                [10, 10],
              ],
              baseline: [
                [10, 35],
                [110, 35],
              ],
              text: 'Line text',
            },
          ],
        },
      ],
    });
  });

  it('reads element names whatever the prefix, and warns about a missing or unknown namespace', () => {
    const prefixed = `<pc:PcGts xmlns:pc="${NS_2019}"><pc:Page imageFilename="a.jpg" imageWidth="10" imageHeight="10">
      <pc:TextRegion id="r"><pc:Coords points="1,1 9,1 9,9"/></pc:TextRegion></pc:Page></pc:PcGts>`;
    expect(parsePageXml(prefixed)).toMatchObject({ format: 'page-2019', warnings: [] });
    expect(parsePageXml(prefixed).regions.map((r) => r.id)).toEqual(['r']);

    const bare = parsePageXml(
      pageXml(`<TextRegion id="r">${box(0, 0)}</TextRegion>`, { ns: null }),
    );
    expect(bare.format).toBe('page-2019');
    expect(bare.regions).toHaveLength(1);
    expect(bare.warnings).toEqual(['The PcGts element has no namespace; read as PAGE 2019-07-15.']);

    const other = parsePageXml(
      pageXml('', { ns: 'http://schema.primaresearch.org/PAGE/gts/pagecontent/2017-07-15' }),
    );
    expect(other.warnings[0]).toMatch(/Unknown PAGE namespace .*2017-07-15/);
  });

  it('takes the line text from the line’s own TextEquiv only, preferring the lowest @index', () => {
    const page = parsePageXml(
      pageXml(`<TextRegion id="r">${box(0, 0)}
        <TextLine id="words-only">${box(0, 0)}
          <Word id="w"><TextEquiv><Unicode>word</Unicode></TextEquiv></Word></TextLine>
        <TextLine id="alternatives">${box(0, 0)}
          <TextEquiv index="2"><Unicode>second</Unicode></TextEquiv>
          <TextEquiv index="1"><PlainText>plain</PlainText><Unicode>first</Unicode></TextEquiv></TextLine>
        <TextLine id="empty">${box(0, 0)}<TextEquiv><Unicode></Unicode></TextEquiv></TextLine>
        <TextEquiv><Unicode>region text</Unicode></TextEquiv></TextRegion>`),
    );
    expect(page.regions[0]!.lines.map((l) => [l.id, l.text])).toEqual([
      ['words-only', ''],
      ['alternatives', 'first'],
      ['empty', ''],
    ]);
  });

  it('decodes XML entities and character references once, and keeps other spaces', () => {
    const page = parsePageXml(
      pageXml(`<TextRegion id="r&amp;1">${box(0, 0)}<TextLine id="l">${box(0, 0)}
        <TextEquiv><Unicode>&#xA0;a &amp; b &lt;c&gt; &#233;&#x1E9E; &amp;#233; &quot;q&apos; <![CDATA[<raw>]]></Unicode></TextEquiv>
        </TextLine></TextRegion>`),
    );
    expect(page.regions[0]!.id).toBe('r&1');
    expect(page.regions[0]!.lines[0]!.text).toBe('\u00a0a & b <c> éẞ &#233; "q\' <raw>');
  });

  it('rounds fractional coordinates and reads PAGE 2010 <Point> children', () => {
    const page = parsePageXml(
      pageXml(`<TextRegion id="r"><Coords><Point x="0" y="0"/><Point x="10.6" y="0"/><Point x="10" y="9.5"/></Coords>
        <TextLine id="l"><Coords points="0.4,0.4 9.5,0 9,9"/><Baseline points="0,8.6 9.4,8"/></TextLine>
        </TextRegion>`),
    );
    const region = page.regions[0]!;
    expect(region.polygon).toEqual([
      [0, 0],
      [11, 0],
      [10, 10],
      [0, 0],
    ]);
    expect(region.lines[0]!.polygon).toEqual([
      [0, 0],
      [10, 0],
      [9, 9],
      [0, 0],
    ]);
    expect(region.lines[0]!.baseline).toEqual([
      [0, 9],
      [9, 8],
    ]);
  });

  it('skips a line with a degenerate or missing polygon, with a warning, and keeps the others', () => {
    const page = parsePageXml(
      pageXml(`<TextRegion id="r">${box(0, 0)}
        <TextLine id="ok">${box(0, 0)}<TextEquiv><Unicode>kept</Unicode></TextEquiv></TextLine>
        <TextLine id="flat"><Coords points="0,5 50,5 100,5"/></TextLine>
        <TextLine id="bare"><TextEquiv><Unicode>no coords</Unicode></TextEquiv></TextLine>
        <TextLine id="junk"><Coords points="1,2 3"/></TextLine>
        <TextLine id="bad-baseline">${box(0, 0)}<Baseline points="5,5 5,5"/></TextLine>
        </TextRegion>`),
    );
    expect(page.regions[0]!.lines.map((l) => l.id)).toEqual(['ok', 'bad-baseline']);
    expect(page.regions[0]!.lines[1]!.baseline).toBeNull();
    expect(page.warnings).toEqual([
      'TextLine flat in region r skipped: its Coords have fewer than three distinct points or no area.',
      'TextLine bare in region r skipped: it has no Coords.',
      'TextLine junk in region r skipped: its Coords cannot be read (odd number of coordinates (3)).',
      'TextLine bad-baseline: its Baseline is ignored (fewer than two distinct points).',
    ]);
  });

  it('outlines a region without usable Coords by its lines, and skips it when it has none', () => {
    const page = parsePageXml(
      pageXml(`<TextRegion id="with-lines"><Coords points="5,5 5,5"/>
          <TextLine id="a"><Coords points="10,10 60,10 60,30 10,30"/></TextLine>
          <TextLine id="b"><Coords points="20,40 90,40 90,70 20,70"/></TextLine></TextRegion>
        <SeparatorRegion id="sep"/>`),
    );
    expect(page.regions.map((r) => r.id)).toEqual(['with-lines']);
    expect(page.regions[0]!.polygon).toEqual([
      [10, 10],
      [90, 10],
      [90, 70],
      [10, 70],
      [10, 10],
    ]);
    expect(page.warnings).toEqual([
      'TextRegion with-lines: its Coords have fewer than three distinct points or no area; the box around its lines is used instead.',
      'SeparatorRegion sep skipped: it has no Coords.',
    ]);
  });

  it('types regions by custom structure first, then @type, then the element name', () => {
    const page = parsePageXml(
      pageXml(`
        <TextRegion id="esc" custom="structure {type:DropCapitalZone;}">${box(0, 0)}</TextRegion>
        <TextRegion id="both" type="other" custom="readingOrder {index:1;} structure {type:marginal\\u0020note;}">${box(0, 0)}</TextRegion>
        <TextRegion id="aletheia" type="page-number" custom="#heading_level2">${box(0, 0)}</TextRegion>
        <TextRegion id="untyped">${box(0, 0)}</TextRegion>
        <GraphicRegion id="stamp" type="stamp">${box(0, 0)}</GraphicRegion>
        <SeparatorRegion id="sep">${box(0, 0)}</SeparatorRegion>
        <TableRegion id="table">${box(0, 0)}<TextRegion id="cell">${box(0, 0)}</TextRegion></TableRegion>`),
    );
    expect(page.regions.map((r) => [r.id, r.kind, r.element, r.type, r.typeLabel])).toEqual([
      ['esc', 'text', 'TextRegion', 'drop_capital_zone', 'DropCapitalZone'],
      ['both', 'text', 'TextRegion', 'marginal_note', 'marginal note'],
      ['aletheia', 'text', 'TextRegion', 'page_number', 'page-number'],
      ['untyped', 'text', 'TextRegion', 'text_region', 'TextRegion'],
      ['stamp', 'other', 'GraphicRegion', 'stamp', 'stamp'],
      ['sep', 'other', 'SeparatorRegion', 'separator_region', 'SeparatorRegion'],
      ['table', 'other', 'TableRegion', 'table_region', 'TableRegion'],
      ['cell', 'text', 'TextRegion', 'text_region', 'TextRegion'],
    ]);
  });

  it('follows nested ReadingOrder groups, then appends unreferenced regions in file order', () => {
    const regions = ['a', 'b', 'c', 'd', 'e', 'f']
      .map((id, i) => `<TextRegion id="${id}">${box(i * 10, 0)}</TextRegion>`)
      .join('');
    const page = parsePageXml(
      pageXml(`<ReadingOrder><OrderedGroup id="g0">
          <RegionRefIndexed index="2" regionRef="b"/>
          <UnorderedGroupIndexed id="g1" index="1" regionRef="e">
            <RegionRef regionRef="d"/>
            <OrderedGroup id="g2"><RegionRefIndexed index="1" regionRef="f"/><RegionRefIndexed index="0" regionRef="c"/></OrderedGroup>
          </UnorderedGroupIndexed>
          <RegionRefIndexed index="3" regionRef="ghost"/>
          <RegionRefIndexed index="4" regionRef="d"/>
        </OrderedGroup></ReadingOrder>
        <SeparatorRegion id="sep">${box(0, 0)}</SeparatorRegion>${regions}`),
    );
    expect(page.regions.map((r) => r.id)).toEqual(['e', 'd', 'c', 'f', 'b', 'sep', 'a']);
    expect(page.warnings).toEqual([
      'The ReadingOrder refers to region ghost, which is not in the file.',
    ]);
  });

  it('keeps file order without a ReadingOrder', () => {
    const page = parsePageXml(
      pageXml(
        ['z', 'a', 'm'].map((id) => `<TextRegion id="${id}">${box(0, 0)}</TextRegion>`).join(''),
      ),
    );
    expect(page.regions.map((r) => r.id)).toEqual(['z', 'a', 'm']);
  });

  describe('refuses files it cannot read', () => {
    const refuse = (xml: string, message: RegExp) => {
      expect(() => parsePageXml(xml)).toThrow(ImportFormatError);
      expect(() => parsePageXml(xml)).toThrow(message);
    };

    it('malformed XML, with where it breaks', () => {
      refuse(
        pageXml('<TextRegion id="r"><Coords points="1,1 2,2 3,1"/>'),
        /not well-formed XML \(line \d+/,
      );
    });

    it('text that is not XML, and an empty file', () => {
      refuse('hello world', /not well-formed XML/);
      refuse('  \n', /empty/);
    });

    it('an ALTO file or another XML root', () => {
      refuse(
        '<alto xmlns="http://www.loc.gov/standards/alto/ns-v4#"/>',
        /an ALTO file, not <PcGts>/,
      );
      refuse('<mets:mets xmlns:mets="http://www.loc.gov/METS/"/>', /root element is <mets>/);
    });

    it('a missing Page', () => {
      refuse(`<PcGts xmlns="${NS_2019}"><Metadata/></PcGts>`, /no <Page> element/);
    });

    it('a missing or invalid image size', () => {
      refuse(pageXml('', { page: 'imageFilename="a.jpg" imageWidth="100"' }), /image size/);
      refuse(
        pageXml('', { page: 'imageFilename="a.jpg" imageWidth="0" imageHeight="10"' }),
        /image size/,
      );
      refuse(
        pageXml('', { page: 'imageFilename="a.jpg" imageWidth="wide" imageHeight="10"' }),
        /image size/,
      );
    });
  });
});

describe('customStructureType', () => {
  it('reads the type out of a Transkribus / eScriptorium custom attribute', () => {
    expect(customStructureType('structure {type:MainZone;}')).toBe('MainZone');
    expect(customStructureType('readingOrder {index:3;} structure {id:x; type:heading;}')).toBe(
      'heading',
    );
    expect(customStructureType('structure {type:MainZone:column#1;}')).toBe('MainZone:column#1');
    expect(customStructureType('structure {type:a\\u0020b;}')).toBe('a b');
    expect(customStructureType('#heading_level2')).toBeUndefined();
    expect(customStructureType('readingOrder {index:0;}')).toBeUndefined();
    expect(customStructureType(undefined)).toBeUndefined();
  });
});

describe('slugifyType', () => {
  it('splits camel case, lowers case and joins other characters with one underscore', () => {
    expect(slugifyType('MainZone')).toBe('main_zone');
    expect(slugifyType('DropCapitalZone')).toBe('drop_capital_zone');
    expect(slugifyType('page-number')).toBe('page_number');
    expect(slugifyType('signature-mark')).toBe('signature_mark');
    expect(slugifyType('paragraph')).toBe('paragraph');
    expect(slugifyType('SeparatorRegion')).toBe('separator_region');
    expect(slugifyType('DefaultLine:Handwritten')).toBe('default_line_handwritten');
    expect(slugifyType('MainZone:column#1')).toBe('main_zone_column_1');
    expect(slugifyType('HTMLBlock')).toBe('html_block');
    expect(slugifyType('  --Marge  annotée-- ')).toBe('marge_annotee');
  });

  it('gives "" when no ASCII letter or digit is left', () => {
    expect(slugifyType('Ζώνη')).toBe('');
    expect(slugifyType('--')).toBe('');
  });
});
