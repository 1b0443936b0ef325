import { expect, test } from '@playwright/test';
import {
  AnnotationPage,
  ServerApi,
  near,
  sameShape,
  signInWithBlankPage,
  type Point,
} from './support/annotation';

test.use({ viewport: { width: 1400, height: 900 } });

test('a rectangle and polygons go through the creation form to where they were drawn, and Esc or Cancel drops a polygon in progress', async ({
  page,
}) => {
  const blank = await signInWithBlankPage(page, 'Drawn zones', 'drawer');
  const api = new ServerApi(page);
  const annotation = new AnnotationPage(page, blank);
  await annotation.open();
  await annotation.turnOn();
  await expect(annotation.tool('Select')).toHaveAttribute('aria-pressed', 'true');

  // Rectangle: a drag, and the release opens the form; Enter in it creates the zone.
  await annotation.chooseTool('Rectangle');
  await annotation.drag([200, 900], [700, 1150]);
  await annotation.shot('rectangle-form');
  await annotation.createWithForm('Heading', 'Paragraph', 'enter');
  await expect
    .poll(() => api.zones(blank.pageId))
    .toEqual([expect.objectContaining({ name: 'Heading', type: 'paragraph' })]);
  const [heading] = await api.zones(blank.pageId);
  expect(
    sameShape(heading!.polygon, [
      [200, 900],
      [700, 900],
      [700, 1150],
      [200, 1150],
    ]),
    JSON.stringify(heading!.polygon),
  ).toBe(true);

  // Polygon (key p): each click adds a point, a double click closes it.
  await page.keyboard.press('p');
  await expect(annotation.tool('Polygon')).toHaveAttribute('aria-pressed', 'true');
  const ornament: Point[] = [
    [300, 1300],
    [900, 1320],
    [950, 1500],
  ];
  await annotation.clickPoints(ornament);
  await expect(annotation.panel.getByRole('button', { name: 'Cancel' })).toBeVisible();
  await annotation.doubleClick([320, 1480]);
  await annotation.createWithForm('Ornament', 'Text line', 'button');

  // Esc cancels a polygon in progress, and so does the Cancel button.
  const cancel = annotation.panel.getByRole('button', { name: 'Cancel' });
  await annotation.clickPoints([
    [200, 600],
    [600, 620],
  ]);
  await expect(cancel).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(cancel).toBeHidden();
  await annotation.clickPoints([
    [250, 1650],
    [1100, 1680],
    [1100, 1950],
  ]);
  await cancel.click();
  await expect(cancel).toBeHidden();

  // A click on the first point closes the polygon too: it has its own points only.
  const signature: Point[] = [
    [400, 1650],
    [1000, 1700],
    [700, 1900],
  ];
  await annotation.clickPoints(signature);
  await annotation.click([402, 1652]);
  await annotation.shot('polygon-form');
  await annotation.createWithForm('Signature', 'Text line');

  // A form closed with Esc creates nothing.
  await annotation.chooseTool('Rectangle');
  await annotation.drag([300, 550], [600, 800]);
  await annotation.expectOpen('Create an annotation');
  await page.keyboard.press('Escape');
  await annotation.expectClosed('Create an annotation');

  await annotation.synced();
  const zones = await api.zones(blank.pageId);
  expect(zones.map((zone) => zone.name)).toEqual(['Heading', 'Ornament', 'Signature']);
  const byName = Object.fromEntries(zones.map((zone) => [zone.name, zone]));
  expect(byName.Ornament!.type).toBe('text_line');
  expect(near(byName.Ornament!.polygon, [...ornament, [320, 1480]])).toBe(true);
  expect(near(byName.Signature!.polygon, signature), JSON.stringify(byName.Signature)).toBe(true);
  // The element itself, as the API returns it.
  expect(await api.zone(byName.Signature!.id)).toMatchObject({
    name: 'Signature',
    type: 'text_line',
  });
  await annotation.shot('drawn');
});

test('batch creation names new zones by counting those of their type, without a form', async ({
  page,
}) => {
  const blank = await signInWithBlankPage(page, 'Batch zones', 'batcher');
  const api = new ServerApi(page);
  const annotation = new AnnotationPage(page, blank);
  await annotation.open();
  await annotation.turnOn();
  await annotation.chooseTool('Rectangle');

  // Without a default type the switch stays off and says why.
  const batch = annotation.batchSwitch('Batch creation');
  await batch.click();
  await expect(
    annotation.notification('An element type is required to use batch creation or type edition.'),
  ).toBeVisible();
  await expect(batch).toHaveAttribute('aria-checked', 'false');

  await annotation.setDefaultType('Text line');
  await batch.click();
  await expect(batch).toHaveAttribute('aria-checked', 'true');
  await annotation.drag([200, 500], [800, 600]);
  await expect.poll(async () => (await api.zones(blank.pageId)).length).toBe(1);

  // Batch creation is kept from the rectangle to the polygon.
  await annotation.chooseTool('Polygon');
  await expect(annotation.batchSwitch('Batch creation')).toHaveAttribute('aria-checked', 'true');
  await annotation.clickPoints([
    [200, 700],
    [800, 700],
    [800, 800],
  ]);
  await annotation.doubleClick([200, 800]);

  // Another type counts its own zones.
  await annotation.setDefaultType('Paragraph');
  await annotation.chooseTool('Rectangle');
  await annotation.drag([200, 1000], [1000, 1400]);
  await annotation.expectClosed('Create an annotation');

  await expect
    .poll(async () =>
      (await api.zones(blank.pageId)).map(({ name, type }) => `${type} ${name}`).sort(),
    )
    .toEqual(['paragraph 1', 'text_line 1', 'text_line 2']);
  const zones = await api.zones(blank.pageId);
  const line2 = zones.find((zone) => zone.type === 'text_line' && zone.name === '2')!;
  expect(
    sameShape(line2.polygon, [
      [200, 700],
      [800, 700],
      [800, 800],
      [200, 800],
    ]),
  ).toBe(true);
  await annotation.synced();
  await annotation.shot('batch');
});
