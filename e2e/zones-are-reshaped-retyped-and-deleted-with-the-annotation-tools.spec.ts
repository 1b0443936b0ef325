import { expect, test } from '@playwright/test';
import {
  AnnotationPage,
  ServerApi,
  near,
  signInWithBlankPage,
  type Point,
} from './support/annotation';

test.use({ viewport: { width: 1400, height: 900 } });

const rectangle = (x0: number, y0: number, x1: number, y1: number): Point[] => [
  [x0, y0],
  [x1, y0],
  [x1, y1],
  [x0, y1],
];
const shifted = (polygon: Point[], dx: number, dy: number): Point[] =>
  polygon.map(([x, y]): Point => [x + dx, y + dy]);

test('the select and median tools reshape a zone, and a shape too small is refused', async ({
  page,
}) => {
  const blank = await signInWithBlankPage(page, 'Reshaped zones', 'reshaper');
  const api = new ServerApi(page);
  const box = await api.createZone(blank, 'Box', 'text_line', rectangle(300, 600, 900, 1000));
  // A sliver along the image's left edge: pulled past the edge, a point lands on it.
  const sliverPolygon: Point[] = [
    [0, 1300],
    [80, 1400],
    [0, 1500],
  ];
  const sliver = await api.createZone(blank, 'Sliver', 'paragraph', sliverPolygon);
  const annotation = new AnnotationPage(page, blank);
  await annotation.open();
  await annotation.turnOn();
  const selected = (name: string) => page.getByText(`Selected: ${name}`);
  const serverBox = async () => (await api.zone(box.id))!.polygon;

  // Select: a click picks the zone, dragging one of its points saves on release.
  await annotation.select([600, 800], 'Box');
  await annotation.shot('selected');
  await annotation.drag([900, 1000], [1000, 1100]);
  const afterPoint = rectangle(300, 600, 900, 1000);
  afterPoint[2] = [1000, 1100];
  await expect.poll(async () => near(await serverBox(), afterPoint)).toBe(true);

  // Dragging inside the zone moves all of it.
  await annotation.drag([500, 700], [600, 650]);
  const afterMove = shifted(afterPoint, 100, -50);
  await expect.poll(async () => near(await serverBox(), afterMove)).toBe(true);
  const moved = await serverBox();

  // Arrow keys move it by one image pixel each, ten with Shift, even as fast as a held key.
  for (let press = 0; press < 5; press += 1) await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Shift+ArrowDown');
  const nudged = shifted(moved, 5, 10);
  await expect.poll(serverBox).toEqual(nudged);

  // Esc during a drag puts the point back; Esc again clears the selection.
  const [topLeft] = nudged;
  const grab = await annotation.at(topLeft!);
  await page.mouse.move(grab.x, grab.y);
  await page.mouse.down();
  await page.mouse.move(grab.x - 40, grab.y - 40, { steps: 4 });
  await page.keyboard.press('Escape');
  await page.mouse.up();
  await expect(selected('Box')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(selected('Box')).toBeHidden();

  // Median point (key i) inserts a point where an edge is clicked, and saves.
  await annotation.select([650, 800], 'Box');
  await page.keyboard.press('i');
  await expect(annotation.tool('Median point')).toHaveAttribute('aria-pressed', 'true');
  await expect(selected('Box')).toBeVisible();
  const [a, b] = nudged;
  const middle: Point = [(a![0] + b![0]) / 2, a![1]];
  await annotation.click(middle);
  await expect.poll(async () => (await serverBox()).length).toBe(5);
  const withMedian = await serverBox();
  expect(
    withMedian.filter((point) => !nudged.some((p) => p[0] === point[0] && p[1] === point[1])),
  ).toHaveLength(1);
  const inserted = withMedian[1]!;
  // On the top edge, where it was clicked.
  expect(inserted[1]).toBe(a![1]);
  expect(Math.abs(inserted[0] - middle[0])).toBeLessThanOrEqual(5);
  await annotation.synced();

  // A point pulled past the image's edge lands on it: the sliver is flat, the spec's message
  // says so, nothing is saved and the selection is cleared.
  await page.keyboard.press('s');
  await annotation.select([20, 1400], 'Sliver');
  await annotation.drag([80, 1400], [-200, 1400]);
  await expect(annotation.notification('This polygon is too small.')).toBeVisible();
  await expect(selected('Sliver')).toBeHidden();
  await annotation.shot('too-small');
  await annotation.synced();
  expect((await api.zone(sliver.id))!.polygon).toEqual(sliverPolygon);
  expect(await serverBox()).toEqual(withMedian);
});

test('types are edited and zones deleted with their forms, or at once with the batch switches', async ({
  page,
}) => {
  const blank = await signInWithBlankPage(page, 'Retyped zones', 'retyper');
  const api = new ServerApi(page);
  const a = await api.createZone(blank, 'A', 'text_line', rectangle(200, 400, 1000, 600));
  const b = await api.createZone(blank, 'B', 'text_line', rectangle(200, 800, 1000, 1000));
  const c = await api.createZone(blank, 'C', 'paragraph', rectangle(200, 1200, 1000, 1400));
  const d = await api.createZone(blank, 'D', 'paragraph', rectangle(200, 1600, 1000, 1800));
  const annotation = new AnnotationPage(page, blank);
  await annotation.open();
  await annotation.turnOn();

  // Edit type (key t): a click opens the type form of that zone.
  await page.keyboard.press('t');
  await expect(annotation.tool('Edit type')).toHaveAttribute('aria-pressed', 'true');
  await annotation.click([600, 500]);
  const typeForm = await annotation.expectOpen('Edit the type of A');
  await typeForm.getByLabel('Type').selectOption({ label: 'Paragraph' });
  await typeForm.getByRole('button', { name: 'Save' }).click();
  await annotation.expectClosed('Edit the type of A');
  await expect.poll(async () => (await api.zone(a.id))!.type).toBe('paragraph');

  // Batch type edition gives the default type at once, and needs one.
  const batchType = annotation.batchSwitch('Batch type edition');
  await batchType.click();
  await expect(
    annotation.notification('An element type is required to use batch creation or type edition.'),
  ).toBeVisible();
  await annotation.setDefaultType('Text line');
  await batchType.click();
  await expect(batchType).toHaveAttribute('aria-checked', 'true');
  await annotation.click([600, 1300]);
  await expect.poll(async () => (await api.zone(c.id))!.type).toBe('text_line');
  await annotation.expectClosed('Edit the type of C');

  // Delete (key d): another tool turns batch type edition off; the form asks first.
  await page.keyboard.press('d');
  await expect(annotation.tool('Delete')).toHaveAttribute('aria-pressed', 'true');
  await expect(annotation.batchSwitch('Batch deletion')).toHaveAttribute('aria-checked', 'false');
  await annotation.click([600, 900]);
  const confirm = await annotation.expectOpen('Delete element');
  await expect(confirm).toContainText('Are you sure you want to delete B?');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await annotation.expectClosed('Delete element');
  await expect.poll(() => api.zone(b.id)).toBeNull();

  // Batch deletion: a click deletes, with no question.
  await annotation.batchSwitch('Batch deletion').click();
  await annotation.click([600, 1700]);
  await expect.poll(() => api.zone(d.id)).toBeNull();
  await annotation.expectClosed('Delete element');
  await annotation.synced();
  await annotation.shot('retyped-deleted');
  expect((await api.zones(blank.pageId)).map(({ name, type }) => ({ name, type }))).toEqual([
    { name: 'A', type: 'paragraph' },
    { name: 'C', type: 'text_line' },
  ]);
});
