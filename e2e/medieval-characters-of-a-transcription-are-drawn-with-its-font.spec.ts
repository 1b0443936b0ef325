import { expect, test, type Locator, type Page } from '@playwright/test';
import { DetailsPanel, signInWithImportedLine } from './support/details';

/**
 * MUFI characters: two Private Use Area abbreviations (U+F128, U+E72B) and the combining small
 * letters r and t (U+036C, U+036D), among plain letters.
 */
const MEDIEVAL = 'q\uF128 d\u036Cu\u036D \uE72B fin';
const FONT_FILE = '/fonts/junicode/JunicodeTwoBeta-Regular.woff2';

interface PlatformFont {
  familyName: string;
  isCustomFont: boolean;
  glyphCount: number;
}

/**
 * The fonts Chromium drew a node's text with, as its DevTools report them: a character no font
 * of the page has falls back to a system font, and shows as an empty box.
 */
async function fontsDrawing(page: Page, target: Locator): Promise<PlatformFont[]> {
  await target.evaluate((node) => node.setAttribute('data-font-probe', ''));
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('DOM.enable');
    await cdp.send('CSS.enable');
    const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
    const { nodeId } = await cdp.send('DOM.querySelector', {
      nodeId: root.nodeId,
      selector: '[data-font-probe]',
    });
    const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
    return fonts;
  } finally {
    await target.evaluate((node) => node.removeAttribute('data-font-probe'));
    await cdp.detach();
  }
}

async function expectDrawnWithTheFont(page: Page, target: Locator): Promise<void> {
  await expect(target).toBeVisible();
  await expect
    .poll(async () => (await fontsDrawing(page, target)).map((font) => font.familyName))
    .toEqual(['Junicode Two Beta']);
  const [font] = await fontsDrawing(page, target);
  expect(font!.isCustomFont).toBe(true);
  // Every character of the text (spaces too), the combining letters included, came from it.
  expect(font!.glyphCount).toBe([...MEDIEVAL].length);
}

test('medieval characters of a transcription are drawn with the transcription font, which the service worker keeps for offline use', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const shots = test.info().outputPath();
  const { line } = await signInWithImportedLine(page);
  const details = new DetailsPanel(page);
  await details.open(line.id, line.name);
  await details.addTranscription(MEDIEVAL, 'Transcription created.');

  // In the details panel.
  await expectDrawnWithTheFont(page, details.transcription(MEDIEVAL).getByText(MEDIEVAL));
  await details.shot('details-panel', shots);

  // In the manage transcriptions modal.
  await details.transcriptions.getByRole('button', { name: 'Manage' }).click();
  const modal = page.getByRole('dialog', { name: 'Manage transcriptions' });
  await expectDrawnWithTheFont(page, modal.getByText(MEDIEVAL, { exact: true }));
  await page.screenshot({ path: `${shots}/manage-modal.png` });

  // Precached with the app shell: the font is there offline too.
  await page.evaluate(async () => navigator.serviceWorker.ready);
  const precached = await page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      if (!name.includes('precache')) continue;
      const cache = await caches.open(name);
      urls.push(...(await cache.keys()).map((request) => new URL(request.url).pathname));
    }
    return urls;
  });
  expect(precached).toContain(FONT_FILE);
});
