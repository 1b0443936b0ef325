/**
 * The element page's main flows on a project imported days ago. Caching, versions and dates
 * bite only on such data: a browser keeps an answer whose Last-Modified is days old for hours
 * (a tenth of its age) unless told otherwise, and a version read then is days old.
 */
import { expect, test, type Page } from '@playwright/test';
import { ageContent } from './support/aged';
import {
  AnnotationPage,
  ServerApi,
  near,
  signInWithBlankPage,
  type Point,
} from './support/annotation';
import {
  DetailsPanel,
  classifyAsWorker,
  signInWithImportedLine,
  type ApiElement,
  type Listed,
} from './support/details';

const DAYS = 3;

interface ServerElement extends ApiElement {
  name: string;
  rotation_angle: number;
  corpus: { id: string };
}

async function rename(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: 'Elements' }).click();
  await page.getByRole('menuitem', { name: 'Edit element' }).click();
  const edit = page.getByRole('dialog');
  await edit.getByLabel('Name').fill(name);
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toHaveCount(0);
  await expect(page.getByRole('heading', { name, exact: true })).toBeVisible();
}

test(`on a project imported ${DAYS} days ago, every edit shows at once, after a reload too, and reaches the server once`, async ({
  page,
}) => {
  test.setTimeout(360_000);
  const shots = test.info().outputPath();
  const { api, line, reading, classes } = await signInWithImportedLine(page);
  const serverLine = () => api.get<ServerElement>(`/element/${line.id}/`);
  const { corpus } = await serverLine();
  const pages = await api.get<Listed<{ id: string; name: string }>>(
    `/corpus/${corpus.id}/elements/?type=page`,
  );
  const pageElement = pages.results[0]!;
  await classifyAsWorker(api, line, reading, classes);
  ageContent(DAYS);
  const details = new DetailsPanel(page);
  const conflicts = page.getByText('Someone changed this element on the server');

  await test.step('a line renamed: the header shows the new name, after a reload too', async () => {
    await details.open(line.id, line.name);
    await rename(page, 'Novelle (renamed)');
    await details.synced();
    expect((await serverLine()).name).toBe('Novelle (renamed)');
    await page.reload();
    await expect(
      page.getByRole('heading', { name: 'Novelle (renamed)', exact: true }),
    ).toBeVisible();
    await page.goto(`/element/${pageElement.id}`);
    await details.open(line.id, 'Novelle (renamed)');
  });

  await test.step('a class added shows in the panel, after a reload too', async () => {
    await details.classify('dat', 'Date');
    await details.synced();
    await page.reload();
    await expect(details.classification('Date')).toBeVisible();
    await expect(
      details.classifications.getByText('No classification for this project'),
    ).toHaveCount(0);
    // Adding it again is refused with the reason, before anything is sent.
    await details.classifications.getByLabel('Add a classification').fill('dat');
    await details.classifications.getByRole('option', { name: 'Date', exact: true }).click();
    await details.classifications.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(
      details.classifications.getByText(
        'A manual classification for this ML class already exists.',
      ),
    ).toBeVisible();
  });

  await test.step('a worker’s classifications validated and rejected show so, after a reload too', async () => {
    const title = details.classification('Title');
    await title.getByRole('button', { name: 'Validate Title' }).click();
    await expect(title.getByRole('button', { name: 'Validate Title' })).toBeDisabled();
    const imprint = details.classification('Imprint');
    await imprint.getByRole('button', { name: 'Reject Imprint' }).click();
    await expect(imprint.getByRole('button', { name: 'Reject Imprint' })).toBeDisabled();
    await details.synced();
    await page.reload();
    await expect(
      details.classification('Title').getByRole('button', { name: 'Validate Title' }),
    ).toBeDisabled();
    await expect(
      details.classification('Imprint').getByRole('button', { name: 'Reject Imprint' }),
    ).toBeDisabled();
    // Shown from this device at once; on the server once its queue has sent both.
    const states = async () =>
      (await serverLine()).classifications.map((c) => `${c.ml_class.name} ${c.state}`).sort();
    await expect.poll(states).toEqual(['Date validated', 'Imprint rejected', 'Title validated']);
    await details.shot('classifications', shots);
  });

  await test.step('a page turned 180° shows turned, and turned back to 0°', async () => {
    await page.goto(`/element/${pageElement.id}`);
    await expect(page.getByRole('heading', { name: pageElement.name, exact: true })).toBeVisible();
    const rotation = details.panel.getByLabel('Rotation');
    await rotation.selectOption('180');
    await expect(rotation).toHaveValue('180');
    await details.synced();
    expect((await api.get<ServerElement>(`/element/${pageElement.id}/`)).rotation_angle).toBe(180);
    await page.reload();
    await expect(details.panel.getByLabel('Rotation')).toHaveValue('180');
    await page.screenshot({ path: `${shots}/turned.png` });
    await details.panel.getByLabel('Rotation').selectOption('0');
    await expect(details.panel.getByLabel('Rotation')).toHaveValue('0');
    await details.synced();
    expect((await api.get<ServerElement>(`/element/${pageElement.id}/`)).rotation_angle).toBe(0);
    await expect(conflicts).toHaveCount(0);
    await page.reload();
    await expect(details.panel.getByLabel('Rotation')).toHaveValue('0');
  });

  await test.step('renamed again and again while requests drop or fail: no conflict with itself', async () => {
    await details.open(line.id, 'Novelle (renamed)');
    let patches = 0;
    await page.route(`**/api/v1/element/${line.id}/`, async (route) => {
      if (route.request().method() !== 'PATCH') return route.fallback();
      patches += 1;
      if (patches === 1) return route.abort('connectionreset');
      if (patches === 3) return route.fulfill({ status: 503, body: 'Service Unavailable' });
      return route.fallback();
    });
    for (const name of ['Novelle 1', 'Novelle 2', 'Novelle 3', 'Novelle 4']) {
      await rename(page, name);
    }
    await details.synced();
    await expect(conflicts).toHaveCount(0);
    expect((await serverLine()).name).toBe('Novelle 4');
    await page.unroute(`**/api/v1/element/${line.id}/`);
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Novelle 4', exact: true })).toBeVisible();
    await expect(details.classification('Date')).toBeVisible();
  });
});

test(`on a project imported ${DAYS} days ago, renamed elements show in the tree and the folder's grid, and an edited reading shows, after a reload too`, async ({
  page,
}) => {
  test.setTimeout(360_000);
  const { api, line } = await signInWithImportedLine(page);
  const { corpus } = await api.get<ServerElement>(`/element/${line.id}/`);
  const pages = await api.get<Listed<{ id: string; name: string }>>(
    `/corpus/${corpus.id}/elements/?type=page`,
  );
  const pageElement = pages.results[0]!;
  const folder = (
    await api.get<Listed<{ id: string; name: string }>>(
      `/corpus/${corpus.id}/elements/?folder=true`,
    )
  ).results[0]!;
  const regions = await api.get<Listed<{ id: string; name: string }>>(
    `/elements/${pageElement.id}/children/?page_size=100`,
  );
  const region = regions.results[0]!;
  // The annotator's own reading, written last week.
  await api.post(`/element/${line.id}/transcription/`, { text: 'Novelle (mine)' });
  ageContent(DAYS);
  const details = new DetailsPanel(page);
  const tree = page.getByRole('navigation', { name: 'Children tree' });

  await test.step("a region renamed shows so in its page's tree", async () => {
    await page.goto(`/element/${pageElement.id}`);
    await expect(tree.getByRole('link', { name: region.name, exact: true }).first()).toBeVisible();
    await page.goto(`/element/${region.id}`);
    await expect(page.getByRole('heading', { name: region.name, exact: true })).toBeVisible();
    await rename(page, 'Heading');
    await details.synced();
    await page.goto(`/element/${pageElement.id}`);
    await expect(tree.getByRole('link', { name: 'Heading', exact: true })).toBeVisible();
    await page.reload();
    await expect(tree.getByRole('link', { name: 'Heading', exact: true })).toBeVisible();
  });

  await test.step("a page renamed shows so in its folder's grid", async () => {
    await page.goto(`/element/${folder.id}`);
    await expect(page.getByRole('link', { name: pageElement.name, exact: true })).toBeVisible();
    await page.goto(`/element/${pageElement.id}`);
    await rename(page, 'Title page');
    await details.synced();
    await page.goto(`/element/${folder.id}`);
    await expect(page.getByRole('link', { name: 'Title page', exact: true })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('link', { name: 'Title page', exact: true })).toBeVisible();
    expect((await api.get<ServerElement>(`/element/${pageElement.id}/`)).name).toBe('Title page');
  });

  await test.step('a reading written last week, corrected', async () => {
    await details.open(line.id, line.name);
    await details.editTranscription(
      'Novelle (mine)',
      'Novelle (corrected)',
      'Transcription updated.',
    );
    await details.synced();
    await page.reload();
    // The panel's lists load after the page (slower when the machine is loaded).
    await expect(details.transcription('Novelle (corrected)')).toBeVisible({ timeout: 30_000 });
    await expect(details.transcription('Novelle (mine)')).toHaveCount(0);
    const listed = await api.get<Listed<{ text: string }>>(
      `/element/${line.id}/transcriptions/?page_size=100`,
    );
    expect(listed.results.map((item) => item.text).sort()).toEqual([
      'Novelle',
      'Novelle (corrected)',
    ]);
  });
});

test(`on a page imported ${DAYS} days ago, a zone drawn then is reshaped and moved with the tools, with no conflict with itself`, async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1400, height: 900 });
  const blank = await signInWithBlankPage(page, 'Aged zones', 'aged-annotator');
  const api = new ServerApi(page);
  const box: Point[] = [
    [300, 600],
    [900, 600],
    [900, 1000],
    [300, 1000],
  ];
  const zone = await api.createZone(blank, 'Box', 'text_line', box);
  ageContent(DAYS);
  const annotation = new AnnotationPage(page, blank);
  await annotation.open();
  await annotation.turnOn();
  const serverBox = async () => (await api.zone(zone.id))!.polygon;

  await annotation.select([600, 800], 'Box');
  await annotation.drag([900, 1000], [1000, 1100]);
  const reshaped = box.map((point, i): Point => (i === 2 ? [1000, 1100] : point));
  await expect.poll(async () => near(await serverBox(), reshaped)).toBe(true);
  // A second edit right after is based on the first one's version, not the week-old read.
  await annotation.drag([500, 700], [600, 650]);
  const moved = reshaped.map(([x, y]): Point => [x + 100, y - 50]);
  await expect.poll(async () => near(await serverBox(), moved)).toBe(true);
  await expect(page.getByText('Someone changed this element on the server')).toHaveCount(0);
  await annotation.synced();
  await page.reload();
  await expect(
    page.getByRole('navigation', { name: 'Children tree' }).getByRole('link', { name: 'Box' }),
  ).toBeVisible();
  await annotation.synced();
  expect(near(await serverBox(), moved)).toBe(true);
});
