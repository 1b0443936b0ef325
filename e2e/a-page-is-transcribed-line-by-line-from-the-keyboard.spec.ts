import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { SHARED_DATA_DIR } from '../tests/server/sharedData';
import { logIn, PASSWORD, ServerApi } from './support/annotation';
import { createUser, importWithCli, uniqueEmail } from './support/server';

/**
 * The title page of Laube's "Die Krieger" (1280 × 2086, PAGE XML with a reading order): eight
 * printed lines in five regions, each line with the text the import attributes to the
 * "File import" worker run. Their reading order, region by region:
 */
const READING_ORDER = [
  'Die Krieger.',
  'Novelle',
  'von',
  'Heinrich Laube.',
  'Zweiter Band.',
  'Mannheim.',
  'Verlag von Heinrich Hoff.',
  '1837.',
] as const;
type LineText = (typeof READING_ORDER)[number];

const SOURCE = path.join(SHARED_DATA_DIR, 'ocrd-gt_structure_text/laube_europa0202_1837/GT-PAGE');
const PAGE_FILE = 'laube_europa0202_1837_0007';

interface ApiTranscription {
  id: string;
  text: string;
  orientation: string;
  worker_run: { id: string; summary: string } | null;
  element: { id: string; name: string };
}

interface ImportedPage {
  pageId: string;
  corpusId: string;
  /** The line that the import read each text on. */
  line: Record<LineText, { id: string; name: string; transcription: ApiTranscription }>;
}

/** A new user, logged in, owning a project of the title page imported from its PAGE XML. */
async function signInWithTitlePage(page: Page, prefix: string): Promise<ImportedPage> {
  // The page alone (its image and its XML), not the rest of the book's folder.
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'folia-laube-'));
  for (const ext of ['jpg', 'xml']) {
    fs.copyFileSync(
      path.join(SOURCE, `${PAGE_FILE}.${ext}`),
      path.join(folder, `${PAGE_FILE}.${ext}`),
    );
  }
  const email = uniqueEmail(prefix);
  createUser(email, PASSWORD);
  const corpusId = importWithCli(folder, `Die Krieger ${email}`, email);
  fs.rmSync(folder, { recursive: true, force: true });
  await logIn(page, email);
  const api = new ServerApi(page);
  const pages = await api.get<{ results: { id: string }[] }>(
    `/corpus/${corpusId}/elements/?type=page`,
  );
  const pageId = pages.results[0]!.id;
  const listed = await api.get<{ results: ApiTranscription[] }>(
    `/element/${pageId}/transcriptions/?recursive=true&page_size=100`,
  );
  const line = Object.fromEntries(
    listed.results.map((item) => [
      item.text,
      { id: item.element.id, name: item.element.name, transcription: item },
    ]),
  ) as ImportedPage['line'];
  expect(Object.keys(line).sort()).toEqual([...READING_ORDER].sort());
  return { pageId, corpusId, line };
}

/** The manual transcriptions of the page's lines on the server, as `line text → typed text`. */
async function manualTranscriptions(page: Page, imported: ImportedPage): Promise<string[]> {
  const textOf = new Map(Object.entries(imported.line).map(([text, line]) => [line.id, text]));
  const listed = await new ServerApi(page).get<{ results: ApiTranscription[] }>(
    `/element/${imported.pageId}/transcriptions/?recursive=true&worker_run=false&page_size=100`,
  );
  return listed.results
    .map((item) => `${textOf.get(item.element.id) ?? item.element.id} → ${item.text}`)
    .sort();
}

/** The "Transcribe line by line" section of the details panel, driven from the keyboard. */
class LineFlow {
  readonly section: Locator;
  readonly field: Locator;

  constructor(
    private readonly page: Page,
    private readonly imported: ImportedPage,
  ) {
    this.section = page.getByRole('region', { name: 'Transcribe line by line' });
    this.field = this.section.getByRole('textbox', { name: /^Text of line / });
  }

  async start(): Promise<void> {
    await this.section.getByRole('button', { name: 'Start' }).click();
  }

  /** The flow is on the line read as `read`, the n-th in reading order, showing `shown`. */
  async expectLine(read: LineText, shown: string): Promise<void> {
    const line = this.imported.line[read];
    const position = READING_ORDER.indexOf(read) + 1;
    await expect(this.section.getByText(`Line ${position} of 8:`)).toHaveText(
      `Line ${position} of 8: ${line.name}`,
    );
    await expect(this.field).toHaveAccessibleName(`Text of line ${line.name}`);
    await expect(this.field).toHaveValue(shown);
    await expect(this.field).toBeEnabled();
    await expect(this.field).toBeFocused();
    // The image follows: the page highlights the line being typed.
    await expect.poll(() => new URL(this.page.url()).searchParams.get('highlight')).toBe(line.id);
  }

  async type(text: string): Promise<void> {
    await this.field.fill(text);
  }

  async next(): Promise<void> {
    await this.field.press('Enter');
  }

  async previous(): Promise<void> {
    await this.field.press('Shift+Enter');
  }
}

test('a page is transcribed line by line from the keyboard, online then offline', async ({
  page,
  context,
}) => {
  test.setTimeout(90_000);
  const imported = await signInWithTitlePage(page, 'transcriber');
  await page.goto(`/element/${imported.pageId}`);
  await expect(page.getByRole('heading', { name: PAGE_FILE })).toBeVisible();
  // The service worker controls the tab, so it reloads offline later.
  await page.evaluate(async () => navigator.serviceWorker.ready);
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);

  const flow = new LineFlow(page, imported);
  await test.step('online: a correction is saved, a reading accepted as it is adds nothing', async () => {
    await flow.start();
    await flow.expectLine('Die Krieger.', 'Die Krieger.');
    await flow.type('DIE KRIEGER.');
    await flow.next();
    await flow.expectLine('Novelle', 'Novelle');
    await page.screenshot({ path: test.info().outputPath('second-line.png') });
    await flow.previous();
    await flow.expectLine('Die Krieger.', 'DIE KRIEGER.');
    await flow.next();
    await flow.expectLine('Novelle', 'Novelle');
    await flow.next();
    await flow.expectLine('von', 'von');
    await flow.type('Von');
    await flow.next();
    await flow.expectLine('Heinrich Laube.', 'Heinrich Laube.');
    await expect
      .poll(() => manualTranscriptions(page, imported))
      .toEqual(['Die Krieger. → DIE KRIEGER.', 'von → Von']);
  });

  const status = page.getByRole('navigation', { name: 'Main' });
  await test.step('offline: two more lines, kept through a reload', async () => {
    await context.setOffline(true);
    await expect(page.getByText('You are offline')).toBeVisible();
    await flow.type('HEINRICH LAUBE.');
    await flow.next();
    await flow.expectLine('Zweiter Band.', 'Zweiter Band.');
    await flow.type('ZWEITER BAND.');
    await flow.next();
    await flow.expectLine('Mannheim.', 'Mannheim.');
    await expect(status.getByText('2 pending')).toBeVisible();

    await page.reload();
    await expect(page.getByRole('heading', { name: PAGE_FILE })).toBeVisible();
    // The address still selects the line typed last: the panel shows that line's own details,
    // then goes back to the page's, where the flow starts again.
    const details = page.getByRole('complementary', { name: 'Element details' });
    await expect(
      details.getByRole('heading', { name: imported.line['Mannheim.'].name, exact: true }),
    ).toBeVisible();
    await expect(details.getByText('Mannheim.', { exact: true })).toBeVisible();
    await details.getByRole('button', { name: 'Back to page' }).click();
    await flow.start();
    await flow.expectLine('Die Krieger.', 'DIE KRIEGER.');
    await flow.next();
    await flow.expectLine('Novelle', 'Novelle');
    await flow.next();
    await flow.expectLine('von', 'Von');
    await flow.next();
    await flow.expectLine('Heinrich Laube.', 'HEINRICH LAUBE.');
    await flow.next();
    await flow.expectLine('Zweiter Band.', 'ZWEITER BAND.');
    await page.screenshot({ path: test.info().outputPath('offline-after-reload.png') });
    // Going over lines already typed queues nothing more.
    await expect(status.getByText('2 pending')).toBeVisible();
  });

  await test.step('back online: the edits sync under a line being typed, each once', async () => {
    // A line is half typed when the network returns: the edits queued offline reach the
    // server and the flow reads the lines again, and what is being typed stays. (When the
    // re-read lands is up to the browser; tests/app/transcriptions/lineTranscriber.test.tsx
    // holds the rule without the timing.)
    await flow.next();
    await flow.expectLine('Mannheim.', 'Mannheim.');
    await flow.type('MANNHEIM');
    // The lines read again once the edits reached the server: the answer has them.
    const reread = page.waitForResponse(
      async (response) =>
        response.url().includes(`/element/${imported.pageId}/transcriptions/?`) &&
        response.url().includes('recursive=true') &&
        (await response.text()).includes('ZWEITER BAND.'),
    );
    await context.setOffline(false);
    await expect(page.getByText('You are offline')).toBeHidden({ timeout: 20_000 });
    await expect(status.getByText(/pending/)).toBeHidden({ timeout: 20_000 });
    await reread;
    await flow.field.press('End');
    await flow.field.pressSequentially('.');
    await flow.next();
    await flow.expectLine('Verlag von Heinrich Hoff.', 'Verlag von Heinrich Hoff.');
    await expect
      .poll(() => manualTranscriptions(page, imported))
      .toEqual([
        'Die Krieger. → DIE KRIEGER.',
        'Heinrich Laube. → HEINRICH LAUBE.',
        'Mannheim. → MANNHEIM.',
        'Zweiter Band. → ZWEITER BAND.',
        'von → Von',
      ]);
  });
});

test('a line shows its reading’s worker run and entities, a right-to-left text, and its crop', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const imported = await signInWithTitlePage(page, 'reader');
  const line = imported.line['Verlag von Heinrich Hoff.'];
  const reading = line.transcription;
  expect(reading.worker_run?.summary).toBe('Worker File import @ 1');

  // A person named in the worker's reading, as an entity of the project's "person" type.
  const api = new ServerApi(page);
  const { id: person } = await api.post<{ id: string }>('/entity/types/', {
    corpus: imported.corpusId,
    name: 'person',
    color: 'e31a1c',
  });
  await api.post(`/transcription/${reading.id}/entities/bulk/`, {
    transcription_entities: [{ offset: 11, length: 13, type_id: person }],
  });

  await page.goto(`/element/${line.id}`);
  const transcriptions = page.getByRole('region', { name: 'Transcriptions' });
  const read = transcriptions.getByText('Verlag von Heinrich Hoff.', { exact: true });
  await expect(read).toBeVisible();
  await expect(read).toHaveAttribute('dir', 'ltr');

  await test.step('the entity is highlighted in its type’s colour', async () => {
    const entity = read.locator('mark');
    await expect(entity).toHaveText('Heinrich Hoff');
    await expect(entity).toHaveAttribute('title', 'person');
    await expect(entity).toHaveCSS('background-color', 'rgba(227, 26, 28, 0.25)');
  });

  await test.step('the worker run of the reading opens in its modal', async () => {
    await transcriptions.getByRole('button', { name: 'Worker File import @ 1' }).click();
    const modal = page.getByRole('dialog', { name: 'Worker run details' });
    await expect(modal.getByText(reading.worker_run!.id, { exact: true })).toBeVisible();
    await expect(modal.getByText('File import', { exact: true })).toBeVisible();
    await expect(modal.getByText('No model.')).toBeVisible();
    await expect(modal.getByText('No configuration.')).toBeVisible();
    await expect(modal.getByText('File imports', { exact: true })).toBeVisible();
    await expect(modal.getByText('completed', { exact: true })).toBeVisible();
    await expect(modal.getByRole('link', { name: 'Process', exact: true })).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('worker-run.png') });
    await modal.getByRole('button', { name: 'Close' }).click();
    await expect(modal).toHaveCount(0);
  });

  const arabic = 'فرلاغ فون هاينريش هوف';
  await test.step('a right-to-left transcription is shown right to left', async () => {
    const form = page.getByRole('region', { name: 'New transcription' });
    await form.getByLabel('Text').fill(arabic);
    await form.getByLabel('Orientation').selectOption({ label: 'Right to left' });
    await expect(form.getByLabel('Text')).toHaveAttribute('dir', 'rtl');
    await form.getByRole('button', { name: 'Create' }).click();
    await expect(page.getByText('Transcription created.')).toBeVisible();
    await expect(transcriptions.getByText(arabic, { exact: true })).toHaveAttribute('dir', 'rtl');
    await expect
      .poll(async () =>
        (
          await api.get<{ results: ApiTranscription[] }>(
            `/element/${line.id}/transcriptions/?worker_run=false`,
          )
        ).results.map((item) => [item.text, item.orientation]),
      )
      .toEqual([[arabic, 'horizontal-rl']]);
  });

  await test.step('the Manage modal shows the crop and the transcriptions by origin', async () => {
    await transcriptions.getByRole('button', { name: 'Manage' }).click();
    const modal = page.getByRole('dialog', { name: 'Manage transcriptions' });
    // The line's box with a margin of 25 image pixels, as a IIIF region that the server serves.
    const element = await api.get<{
      zone: { polygon: [number, number][]; image: { url: string } };
    }>(`/element/${line.id}/`);
    const xs = element.zone.polygon.map(([x]) => x);
    const ys = element.zone.polygon.map(([, y]) => y);
    const [x, y] = [Math.min(...xs) - 25, Math.min(...ys) - 25];
    const [w, h] = [Math.max(...xs) + 25 - x, Math.max(...ys) + 25 - y];
    const crop = modal.getByRole('img', { name: `Image of ${line.name}` });
    await expect(crop).toHaveAttribute(
      'src',
      `${element.zone.image.url}/${x},${y},${w},${h}/full/0/default.jpg`,
    );
    await expect
      .poll(() =>
        crop.evaluate((img: HTMLImageElement) => [
          img.complete,
          img.naturalWidth,
          img.naturalHeight,
        ]),
      )
      .toEqual([true, w, h]);

    const manual = modal.getByRole('region', { name: 'Manual' });
    // The crop is seen whole, within the modal's width (the groups below span it).
    const [shown, column] = [await crop.boundingBox(), await manual.boundingBox()];
    expect(shown!.x).toBeGreaterThanOrEqual(column!.x - 1);
    expect(shown!.x + shown!.width).toBeLessThanOrEqual(column!.x + column!.width + 1);
    await expect(manual.getByText(arabic, { exact: true })).toHaveAttribute('dir', 'rtl');
    await expect(manual.getByText('Verlag von Heinrich Hoff.')).toHaveCount(0);
    const byRun = modal.getByRole('region', { name: 'Worker File import @ 1' });
    await expect(byRun.getByText('Verlag von Heinrich Hoff.', { exact: true })).toBeVisible();
    await expect(byRun.getByText(arabic)).toHaveCount(0);
    await page.screenshot({ path: test.info().outputPath('manage.png') });
    await modal.getByRole('button', { name: 'Close' }).click();
    await expect(modal).toHaveCount(0);
  });

  await test.step('the page’s line flow gives that line right to left', async () => {
    await page.goto(`/element/${imported.pageId}`);
    const flow = new LineFlow(page, imported);
    await flow.start();
    await flow.expectLine('Die Krieger.', 'Die Krieger.');
    await expect(flow.field).toHaveAttribute('dir', 'ltr');
    for (const read of READING_ORDER.slice(1, 6)) {
      await flow.next();
      await flow.expectLine(read, read);
    }
    await flow.next();
    await flow.expectLine('Verlag von Heinrich Hoff.', arabic);
    await expect(flow.field).toHaveAttribute('dir', 'rtl');
  });
});
