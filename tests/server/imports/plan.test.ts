import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { planImport } from '../../../server/imports/plan';
import { SHARED_DATA_DIR, sharedDataAvailable } from '../sharedData';

const shared = sharedDataAvailable() ? describe : describe.skip;

shared('planning an import of the shared corpus', () => {
  it('pairs every layout file with its image and reads both manifests', async () => {
    const plan = await planImport(SHARED_DATA_DIR);
    expect(plan.problems).toEqual([]);
    const layouts = plan.items.filter((item) => item.kind === 'layout');
    expect(layouts).toHaveLength(12);
    for (const layout of layouts) expect(fs.existsSync(layout.imagePath)).toBe(true);
    // Each XML describes one of the 9 images, so no image is left over as a page of its own.
    expect(new Set(layouts.map((l) => l.imagePath)).size).toBe(9);
    expect(plan.items.filter((item) => item.kind === 'image')).toEqual([]);
    const manifests = plan.items.filter((item) => item.kind === 'manifest');
    expect(manifests.map((m) => m.manifest.canvases.length).sort((a, b) => a - b)).toEqual([
      170, 318,
    ]);
    expect(plan.skipped).toContain('README.md');
  });

  it('finds images one folder up and by the path written in the XML', async () => {
    const plan = await planImport(SHARED_DATA_DIR);
    const bySource = new Map(plan.items.map((item) => [item.source, item]));
    const alto = bySource.get('lectaurep-bronod/bronod1/alto/0005.xml');
    expect(alto?.kind === 'layout' && path.basename(alto.imagePath)).toBe('0005.jpg');
    const bebel = bySource.get(
      'ocrd-gt_structure_text/bebel_frau_1879/GT-PAGE/bebel_frau_1879_0146.xml',
    );
    expect(bebel?.kind === 'layout' && path.basename(bebel.imagePath)).toBe(
      'bebel_frau_1879_0146.tif',
    );
    expect(alto?.folder).toEqual(['lectaurep-bronod', 'bronod1', 'alto']);
  });
});

describe('planning an import with bad files', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folia-plan-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reports each bad file with its reason and keeps the rest', async () => {
    fs.writeFileSync(path.join(dir, 'broken.xml'), '<PcGts><Page');
    fs.writeFileSync(path.join(dir, 'notes.xml'), '<notes><note>hello</note></notes>');
    fs.writeFileSync(
      path.join(dir, 'orphan.xml'),
      '<PcGts xmlns="http://schema.primaresearch.org/PAGE/gts/pagecontent/2019-07-15"><Page imageFilename="missing.jpg" imageWidth="10" imageHeight="10"/></PcGts>',
    );
    fs.writeFileSync(path.join(dir, 'scan.png'), Buffer.from('not really a png'));
    const plan = await planImport(dir);
    const problems = Object.fromEntries(plan.problems.map((p) => [p.file, p.reason]));
    expect(Object.keys(problems).sort()).toEqual(['broken.xml', 'notes.xml', 'orphan.xml']);
    expect(problems['orphan.xml']).toBe('its image "missing.jpg" was not found');
    expect(problems['notes.xml']).toBe('not a PAGE XML or ALTO file');
    expect(plan.items).toEqual([expect.objectContaining({ kind: 'image', source: 'scan.png' })]);
  });

  it('refuses a path that does not exist', async () => {
    await expect(planImport(path.join(dir, 'nope'))).rejects.toThrow('no such file or folder');
  });
});
