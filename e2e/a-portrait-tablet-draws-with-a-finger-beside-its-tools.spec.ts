import { expect, test, type Locator, type Page } from '@playwright/test';
import { AnnotationPage, ServerApi, sameShape, signInWithBlankPage } from './support/annotation';
import { touch } from './support/touch';

type Box = { x: number; y: number; width: number; height: number };

async function box(locator: Locator): Promise<Box> {
  const found = await locator.boundingBox();
  expect(found, 'shown on the page').not.toBeNull();
  return found!;
}

/** Entirely on screen, without scrolling. */
async function expectOnScreen(page: Page, locator: Locator) {
  const { x, y, width, height } = await box(locator);
  const viewport = page.viewportSize()!;
  expect(x).toBeGreaterThanOrEqual(0);
  expect(y).toBeGreaterThanOrEqual(0);
  expect(x + width).toBeLessThanOrEqual(viewport.width);
  expect(y + height).toBeLessThanOrEqual(viewport.height);
}

const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Every link and button of the navbar, with its box. */
async function navbarControls(page: Page): Promise<{ name: string; box: Box }[]> {
  const controls = page.getByRole('navigation', { name: 'Main' }).locator('a, button');
  const count = await controls.count();
  expect(count).toBeGreaterThan(4);
  const found = [];
  for (let i = 0; i < count; i += 1) {
    const control = controls.nth(i);
    found.push({
      name: (await control.getAttribute('aria-label')) ?? (await control.innerText()),
      box: await box(control),
    });
  }
  return found;
}

/** Creates a transcription from the details panel and checks its notice covers no button. */
async function transcribe(page: Page, text: string) {
  const panel = page.getByRole('complementary', { name: 'Element details' });
  await panel.getByLabel('Text').fill(text);
  const create = panel.getByRole('button', { name: 'Create', exact: true });
  // As low on screen as it goes, where notices used to pile up.
  await create.evaluate((button) => button.scrollIntoView({ block: 'end' }));
  const pressed = await box(create);
  await create.click();
  const notice = page.getByRole('status').filter({ hasText: 'Transcription created.' });
  await expect(notice).toBeVisible();
  const shown = await box(notice);
  expect(overlap(shown, pressed), 'the notice covers the button it followed').toBe(false);
  const navbar = await box(page.getByRole('navigation', { name: 'Main' }));
  expect(overlap(shown, navbar), 'the notice covers the navbar').toBe(false);
  await notice.getByRole('button', { name: 'Close notification' }).click();
  await expect(notice).toBeHidden();
}

// Signing up, importing and drawing take a while on a busy machine.
test.describe.configure({ timeout: 180_000 });

test.describe('a portrait tablet', () => {
  test.use({ viewport: { width: 820, height: 1180 }, hasTouch: true, isMobile: true });

  test('the tools sit with the image, a finger draws once allowed, two fingers still zoom', async ({
    page,
  }) => {
    const blank = await signInWithBlankPage(page, 'Portrait', 'portrait');
    const api = new ServerApi(page);
    const annotation = new AnnotationPage(page, blank);
    const cdp = await page.context().newCDPSession(page);
    await annotation.open();

    // Every navbar control is a finger wide and tall.
    for (const { name, box: control } of await navbarControls(page)) {
      expect(control.height, name).toBeGreaterThanOrEqual(44);
      expect(control.width, name).toBeGreaterThanOrEqual(44);
    }

    // The details open in a sheet over the bottom of the screen, with the image still there.
    await expectOnScreen(page, annotation.overlay);
    const showDetails = page.getByRole('button', { name: 'Show details' });
    await expectOnScreen(page, showDetails);
    await showDetails.click();
    const details = page.getByRole('complementary', { name: 'Element details' });
    // It starts well within the screen and scrolls inside the sheet.
    expect((await box(details)).y).toBeLessThan(page.viewportSize()!.height - 300);
    await expectOnScreen(page, annotation.toggle);
    await annotation.shot('portrait-details');
    await transcribe(page, 'Die Krieger');
    // The list above grew: the button now sits at the bottom of the sheet.
    await transcribe(page, 'Novelle von Heinrich Laube');
    await annotation.shot('portrait-notice');
    await page.getByRole('button', { name: 'Hide details' }).click();
    await expect(details).toBeHidden();

    // In annotation mode the tools and the whole image are on screen together.
    await annotation.turnOn();
    await expectOnScreen(page, annotation.panel.getByRole('toolbar', { name: 'Tools' }));
    await expectOnScreen(page, annotation.overlay);
    await annotation.chooseTool('Rectangle');
    await annotation.setDefaultType('Text line');
    await annotation.batchSwitch('Batch creation').click();
    const fingers = annotation.panel.getByRole('switch', { name: 'Draw with finger' });
    await expectOnScreen(page, fingers);
    await expect(fingers).not.toBeChecked();
    await annotation.shot('portrait-tools');

    // Off, a finger pans and draws nothing.
    const before = await annotation.imageRect();
    const start = await annotation.at([600, 1500]);
    await touch(cdp, [start], [{ x: start.x + 120, y: start.y }]);
    expect((await annotation.imageRect()).left - before.left).toBeGreaterThan(80);
    await annotation.synced();
    expect(await api.zones(blank.pageId)).toHaveLength(0);

    // On, a finger draws a rectangle that becomes a zone on the server.
    await fingers.click();
    await expect(fingers).toBeChecked();
    // The pan above may still glide on a loaded machine: where the image is now, read again.
    await annotation.imageRect();
    const from = await annotation.at([200, 500]);
    const to = await annotation.at([900, 800]);
    await touch(cdp, [from], [to]);
    await expect.poll(async () => (await api.zones(blank.pageId)).length).toBe(1);
    const [zone] = await api.zones(blank.pageId);
    expect(
      sameShape(zone!.polygon, [
        [200, 500],
        [900, 500],
        [900, 800],
        [200, 800],
      ]),
    ).toBe(true);
    await annotation.shot('portrait-finger-drawn');

    // Two fingers still pinch to zoom, and draw nothing.
    const zoom = page.getByRole('region', { name: 'Image' }).getByRole('status');
    const level = await zoom.innerText();
    const overlay = await box(annotation.overlay);
    const centre = { x: overlay.x + overlay.width / 2, y: overlay.y + overlay.height / 2 };
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
    await expect(zoom).not.toHaveText(level);
    await annotation.shot('portrait-pinch');
    await annotation.synced();
    expect(await api.zones(blank.pageId)).toHaveLength(1);

    // The choice is remembered.
    await annotation.open();
    await annotation.turnOn();
    await expect(fingers).toBeChecked();
  });
});

test.describe('a desktop', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('keeps its compact navbar and the tools beside the image', async ({ page }) => {
    const blank = await signInWithBlankPage(page, 'Desktop', 'desktop');
    const annotation = new AnnotationPage(page, blank);
    await annotation.open();
    for (const { name, box: control } of await navbarControls(page)) {
      expect(control.height, name).toBeLessThan(40);
    }
    const details = page.getByRole('complementary', { name: 'Element details' });
    await expect(page.getByRole('button', { name: 'Show details' })).toBeHidden();
    expect((await box(details)).x).toBeGreaterThan((await box(annotation.overlay)).x);
    await transcribe(page, 'Die Krieger');
    await annotation.shot('desktop-notice');

    await annotation.turnOn();
    const tools = await box(annotation.panel);
    const image = await box(annotation.overlay);
    expect(tools.x).toBeGreaterThanOrEqual(image.x + image.width);
    await expect(annotation.panel.getByRole('switch', { name: 'Draw with finger' })).toBeHidden();
    await annotation.shot('desktop-tools');
  });
});
