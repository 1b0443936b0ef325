import { describe, expect, it } from 'vitest';
import { detectFormat, readXml } from '../../../../server/imports/formats/detect';
import { ImportFormatError } from '../../../../server/imports/formats/types';

const PAGE = `<?xml version="1.0" encoding="UTF-8"?>
<PcGts xmlns="http://schema.primaresearch.org/PAGE/gts/pagecontent/2019-07-15"><Page/></PcGts>`;
const ALTO = `<?xml version="1.0"?><alto xmlns="http://www.loc.gov/standards/alto/ns-v4#"><Layout/></alto>`;
const MANIFEST_V2 = JSON.stringify({
  '@context': 'http://iiif.io/api/presentation/2/context.json',
  '@id': 'https://example.org/m',
  '@type': 'sc:Manifest',
});
const MANIFEST_V3 = JSON.stringify({
  '@context': [
    'http://iiif.io/api/extension/navplace/context.json',
    'http://iiif.io/api/presentation/3/context.json',
  ],
  id: 'https://example.org/m',
  type: 'Manifest',
});

describe('detectFormat', () => {
  it('tells PAGE, ALTO and IIIF manifests apart by content, whatever the file is called', () => {
    expect(detectFormat(PAGE, 'page.xml')).toBe('page');
    expect(detectFormat(PAGE, 'export.txt')).toBe('page');
    expect(detectFormat(ALTO, 'scan.alto')).toBe('alto');
    expect(detectFormat(ALTO, 'page.xml')).toBe('alto');
    expect(detectFormat(MANIFEST_V2, 'manifest')).toBe('iiif-manifest');
    expect(detectFormat(MANIFEST_V3, 'data.xml')).toBe('iiif-manifest');
  });

  it('reads past a BOM, comments, processing instructions and a DOCTYPE, and ignores prefixes', () => {
    const prolog =
      '\uFEFF<?xml version="1.0"?>\n<!-- exported <PcGts> -->\n<?xml-stylesheet href="a.xsl"?>\n' +
      '<!DOCTYPE alto [ <!ENTITY e "<x>"> ]>\n';
    expect(detectFormat(`${prolog}<alto/>`, 'a.xml')).toBe('alto');
    expect(detectFormat('<pc:PcGts xmlns:pc="urn:x"/>', 'a.xml')).toBe('page');
    expect(detectFormat('<ALTO/>', 'a.xml')).toBe('alto');
  });

  it('says null for other XML and JSON, and for text that is neither', () => {
    expect(
      detectFormat('<mets:mets xmlns:mets="http://www.loc.gov/METS/"/>', 'mets.xml'),
    ).toBeNull();
    expect(detectFormat('<TEI xmlns="http://www.tei-c.org/ns/1.0"/>', 'a.xml')).toBeNull();
    const collection = {
      '@context': 'http://iiif.io/api/presentation/3/context.json',
      type: 'Collection',
    };
    expect(detectFormat(JSON.stringify(collection), 'c.json')).toBeNull();
    const info = { '@context': 'http://iiif.io/api/image/3/context.json', type: 'ImageService3' };
    expect(detectFormat(JSON.stringify(info), 'info.json')).toBeNull();
    expect(detectFormat('[1, 2]', 'a.json')).toBeNull();
    expect(detectFormat('x,y\n1,2', 'a.csv')).toBeNull();
    expect(detectFormat('', 'a.xml')).toBeNull();
  });

  it('routes a file it cannot sniff to its parser by extension and namespace, so its error is precise', () => {
    const garbled =
      '<?xml version="1.0" <PcGts xmlns="http://schema.primaresearch.org/PAGE/gts/pagecontent/2019-07-15">';
    expect(detectFormat(garbled, 'page.xml')).toBe('page');
    expect(detectFormat(garbled, 'page.txt')).toBeNull();
    const truncated = '{"@context": "http://iiif.io/api/presentation/3/context.json", "items": [';
    expect(detectFormat(truncated, 'manifest.json')).toBe('iiif-manifest');
    expect(detectFormat(truncated, 'manifest.txt')).toBeNull();
  });
});

describe('readXml', () => {
  it('resolves namespaces of prefixed and default names', () => {
    const root = readXml(
      '<a:root xmlns:a="urn:a" xmlns="urn:default"><child x="1"><a:leaf/></child></a:root>',
    );
    expect(root).toMatchObject({ name: 'a:root', local: 'root', namespace: 'urn:a' });
    const child = root.children[0]!;
    expect(child).toMatchObject({
      local: 'child',
      namespace: 'urn:default',
      attributes: { x: '1' },
    });
    expect(child.children[0]).toMatchObject({ local: 'leaf', namespace: 'urn:a' });
  });

  it('keeps text, CDATA and entities of an element, decoded exactly once', () => {
    const root = readXml(
      '<!DOCTYPE r [<!ENTITY who "Wolf">]><r a="&lt;&#x41;&amp;amp;">x &amp;&#10;<![CDATA[ <y> ]]> &who; &#0;</r>',
    );
    expect(root.attributes['a']).toBe('<A&amp;');
    expect(root.text).toBe('x &\n <y>  Wolf &#0;');
  });

  it('leaves unknown names alone, Object properties included', () => {
    expect(readXml('<r>&nbsp; &constructor; &toString;</r>').text).toBe(
      '&nbsp; &constructor; &toString;',
    );
  });

  it('refuses a document whose DTD entities blow up (quadratic expansion)', () => {
    const big = 'x'.repeat(10_000);
    const xml = `<!DOCTYPE r [<!ENTITY big "${big}">]><r>${'&big;'.repeat(200)}</r>`;
    expect(() => readXml(xml)).toThrow(ImportFormatError);
    expect(() => readXml(xml)).toThrow(/expand to more than a million characters/);
    const fine = `<!DOCTYPE r [<!ENTITY big "${big}">]><r>${'&big;'.repeat(20)}</r>`;
    expect(readXml(fine).text).toHaveLength(200_000);
  });

  it('keeps numbers as written (no number parsing of "007")', () => {
    const root = readXml('<r n="007"><t>0.50</t></r>');
    expect(root.attributes['n']).toBe('007');
    expect(root.children[0]!.text).toBe('0.50');
  });

  it('throws ImportFormatError with a position for malformed XML', () => {
    expect(() => readXml('<a><b></a>')).toThrow(ImportFormatError);
    expect(() => readXml('<a><b></a>')).toThrow(/not well-formed XML \(line 1, column \d+\)/);
    expect(() => readXml('{"json": true}')).toThrow(/not well-formed XML/);
  });
});
