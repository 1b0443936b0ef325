import { expect, test, type CDPSession } from '@playwright/test';
import {
  AnnotationPage,
  ServerApi,
  sameShape,
  signInWithBlankPage,
  type Point,
} from './support/annotation';
import { touch } from './support/touch';

// A tablet-sized window with a touch screen and a pen.
test.use({ viewport: { width: 1400, height: 900 }, hasTouch: true });

type Screen = { x: number; y: number };

/** Real pen input, as the browser gets it from a stylus (CDP mouse events of type pen). */
async function pen(
  cdp: CDPSession,
  type: 'mousePressed' | 'mouseMoved' | 'mouseReleased',
  at: Screen,
) {
  await cdp.send('Input.dispatchMouseEvent', {
    type,
    x: at.x,
    y: at.y,
    button: 'left',
    buttons: type === 'mouseReleased' ? 0 : 1,
    clickCount: 1,
    pointerType: 'pen',
  });
}

const rectangle = ([x0, y0]: Point, [x1, y1]: Point): Point[] => [
  [x0, y0],
  [x1, y0],
  [x1, y1],
  [x0, y1],
];

test('a pen draws zones, a resting palm is ignored, one finger pans and two fingers zoom', async ({
  page,
}) => {
  const blank = await signInWithBlankPage(page, 'Tablet', 'tablet');
  const api = new ServerApi(page);
  const annotation = new AnnotationPage(page, blank);
  const cdp = await page.context().newCDPSession(page);
  await annotation.open();
  await annotation.turnOn();
  await annotation.chooseTool('Rectangle');
  await annotation.setDefaultType('Text line');
  await annotation.batchSwitch('Batch creation').click();
  const zoneCount = async () => (await api.zones(blank.pageId)).length;
  // What kinds of pointer the page is given: the input below must be a pen and fingers.
  await page.evaluate(() => {
    const seen = new Set<string>();
    document.addEventListener('pointerdown', (event) => seen.add(event.pointerType), true);
    (window as unknown as { pointerTypes: Set<string> }).pointerTypes = seen;
  });
  const pointerTypes = () =>
    page.evaluate(() => [...(window as unknown as { pointerTypes: Set<string> }).pointerTypes]);

  // The pen draws a rectangle like the mouse does.
  const penDrag = async (from: Point, to: Point, meanwhile?: () => Promise<void>) => {
    await pen(cdp, 'mousePressed', await annotation.at(from));
    for (const t of [0.25, 0.5]) {
      await pen(
        cdp,
        'mouseMoved',
        await annotation.at([from[0] + (to[0] - from[0]) * t, from[1] + (to[1] - from[1]) * t]),
      );
    }
    await meanwhile?.();
    await pen(cdp, 'mouseMoved', await annotation.at(to));
    await pen(cdp, 'mouseReleased', await annotation.at(to));
  };
  await penDrag([200, 500], [900, 800]);
  await expect.poll(zoneCount).toBe(1);
  const [first] = await api.zones(blank.pageId);
  expect(sameShape(first!.polygon, rectangle([200, 500], [900, 800]))).toBe(true);

  // A palm landing and sliding while the pen draws neither pans nor draws.
  const before = await annotation.imageRect();
  await penDrag([200, 1000], [900, 1300], async () => {
    await touch(cdp, [await annotation.at([300, 1700])], [await annotation.at([700, 1900])]);
  });
  await expect.poll(zoneCount).toBe(2);
  const second = (await api.zones(blank.pageId)).find((zone) => zone.name === '2')!;
  expect(sameShape(second.polygon, rectangle([200, 1000], [900, 1300]))).toBe(true);
  expect(await annotation.imageRect()).toEqual(before);
  expect((await pointerTypes()).sort()).toEqual(['pen', 'touch']);

  // One finger pans the image and draws nothing.
  const start = await annotation.at([600, 1500]);
  await touch(cdp, [start], [{ x: start.x + 150, y: start.y }]);
  const panned = await annotation.imageRect();
  expect(panned.left - before.left).toBeGreaterThan(100);
  await annotation.shot('touch-pan');
  await annotation.synced();
  expect(await zoneCount()).toBe(2);

  // Two fingers pinch to zoom: the viewer's zoom level goes up.
  const zoom = page.getByRole('region', { name: 'Image' }).getByRole('status');
  await expect(zoom).toHaveText('100 %');
  const box = (await annotation.overlay.boundingBox())!;
  const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  await touch(
    cdp,
    [
      { x: centre.x - 30, y: centre.y },
      { x: centre.x + 30, y: centre.y },
    ],
    [
      { x: centre.x - 200, y: centre.y },
      { x: centre.x + 200, y: centre.y },
    ],
  );
  await expect(zoom).not.toHaveText('100 %');
  await annotation.shot('pinch');
  await annotation.synced();
  expect(await zoneCount()).toBe(2);
});
