import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Browser, type Cookie, type Locator, type Page } from '@playwright/test';
import { SHARED_DATA_DIR } from '../tests/server/sharedData';
import { PASSWORD, ServerApi } from './support/annotation';
import { expectReadsWell } from './support/axe';
import { AccountPages } from './support/pages';
import { createUser, importWithCli, uniqueEmail } from './support/server';

/** The title page of Laube's "Die Krieger" (PAGE XML): a page with regions and eight lines. */
const LAUBE = path.join(SHARED_DATA_DIR, 'ocrd-gt_structure_text/laube_europa0202_1837/GT-PAGE');
const LAUBE_PAGE = 'laube_europa0202_1837_0007';
/** A medieval page and its PAGE XML, uploaded through the app: the user's background job. */
const CREMMA = path.join(
  SHARED_DATA_DIR,
  'cremma-medieval',
  'pennsylvania_660-pelerinageMademoiselleSapience',
);
const FOLDER = 'Die Krieger';

interface Named {
  id: string;
  name: string;
}
interface Listed<T> {
  results: T[];
}

test.use({ viewport: { width: 1280, height: 900 } });

/** A folder "Die Krieger" holding the title page, outside the repository, for the CLI import. */
function laubeFolder(): string {
  const folder = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'folia-axe-')), FOLDER);
  fs.mkdirSync(folder);
  for (const ext of ['jpg', 'xml']) {
    fs.copyFileSync(
      path.join(LAUBE, `${LAUBE_PAGE}.${ext}`),
      path.join(folder, `${LAUBE_PAGE}.${ext}`),
    );
  }
  return folder;
}

/** The screen has its title and has stopped saying it loads. */
async function settled(page: Page, ready?: Locator): Promise<void> {
  await expect(ready ?? page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await expect(page.getByText(/^Loading…?$/)).toHaveCount(0, { timeout: 15_000 });
}

async function visit(page: Page, url: string, screen: string, ready?: Locator): Promise<void> {
  await test.step(screen, async () => {
    await page.goto(url);
    await settled(page, ready);
    await expectReadsWell(page, screen);
  });
}

/** Opens one of the element navigation's menus and picks an entry. */
async function elementMenu(page: Page, menu: string, item: string): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Element navigation' })
    .getByRole('button', { name: menu })
    .click();
  await page.getByRole('menuitem', { name: item }).click();
}

/** Shows a tree from the Display menu, unless the user's display settings show it already. */
async function showTree(page: Page, tree: string): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Element navigation' })
    .getByRole('button', { name: 'Display' })
    .click();
  const hide = page.getByRole('menuitem', { name: `Hide ${tree}` });
  const show = page.getByRole('menuitem', { name: `Show ${tree}` });
  await expect(hide.or(show)).toBeVisible();
  if (await show.isVisible()) await show.click();
  else await page.keyboard.press('Escape');
  await expect(hide.or(show)).toHaveCount(0);
}

/** What the signed-in screens show: one administrator's project, dataset and model. */
interface World {
  email: string;
  cookies: Cookie[];
  corpusId: string;
  folder: Named;
  pageElement: Named & { zone: { image: { id: string } } };
  line: Named;
  dataset: Named;
  model: Named;
}

/**
 * An administrator with an indexable project holding Laube's title page (imported by the CLI),
 * that page selected, a dataset and a model; logged in once, the session kept for each test.
 */
async function prepare(browser: Browser, baseURL: string): Promise<World> {
  const email = uniqueEmail('axe');
  createUser(email, PASSWORD, { admin: true, displayName: 'Ada Reader' });
  const source = laubeFolder();
  const corpusId = importWithCli(source, `Die Krieger ${email}`, email);
  fs.rmSync(path.dirname(source), { recursive: true, force: true });

  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await page.goto('/user/login');
  await new AccountPages(page).logIn(email, PASSWORD);
  await expect(page).toHaveURL(/\/browse\/$/);
  const api = new ServerApi(page);
  const csrf = (await context.cookies()).find((c) => c.name === 'arkindex.csrf')?.value;
  const patched = await page.request.patch(`/api/v1/corpus/${corpusId}/`, {
    data: { indexable: true },
    headers: { 'x-csrftoken': csrf ?? '' },
  });
  expect(patched.status()).toBe(200);
  const folder = (await api.get<Listed<Named>>(`/corpus/${corpusId}/elements/?type=folder`))
    .results[0]!;
  const pageElement = (
    await api.get<Listed<World['pageElement']>>(
      `/corpus/${corpusId}/elements/?type=page&with_zone=true`,
    )
  ).results[0]!;
  const lines = await api.get<Listed<Named>>(
    `/elements/${pageElement.id}/children/?recursive=true&type=text_line`,
  );
  const selected = await page.request.post('/api/v1/elements/selection/', {
    data: { ids: [pageElement.id] },
    headers: { 'x-csrftoken': csrf ?? '' },
  });
  expect(selected.status()).toBe(204);
  const dataset = await api.post<Named>(`/corpus/${corpusId}/datasets/`, {
    name: 'Lines of Die Krieger',
    description: 'Train, dev and test lines',
  });
  const model = await api.post<Named>('/models/', { name: `Fraktur lines ${email}` });
  const cookies = await context.cookies();
  await context.close();
  return { email, cookies, corpusId, folder, pageElement, line: lines.results[0]!, dataset, model };
}

// Each group of screens is its own test, so a slow machine's retry redoes one group, not thirty
// screens; the project they read is made once.
let world: World;

test.beforeAll(async ({ browser }, testInfo) => {
  testInfo.setTimeout(120_000);
  world = await prepare(browser, String(testInfo.project.use.baseURL));
});

/** The page, logged in as the world's administrator. */
async function signIn(page: Page): Promise<World> {
  await page.context().addCookies(world.cookies);
  return world;
}

test('the anonymous screens and the keyboard help read well', async ({ page }) => {
  await visit(page, '/', 'home (anonymous)', page.getByRole('navigation', { name: 'Main' }));
  await visit(page, '/user/login', 'login', page.getByRole('form', { name: 'Log in' }));
  await visit(page, '/user/register', 'register', page.getByRole('form', { name: 'Register' }));
  await visit(page, '/user/password_reset', 'password reset');
  await visit(page, '/user/reset/MQ/set-password-token', 'password reset confirmation');
  await visit(page, '/no/such/page', 'Page not found');
  await test.step('keyboard help', async () => {
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await expect(help.getByRole('heading', { name: 'Keyboard shortcuts' })).toBeVisible();
    await expectReadsWell(page, 'keyboard help dialog');
    await page.keyboard.press('Escape');
  });
});

test('the project and folder screens and their dialogs read well', async ({ page }) => {
  test.setTimeout(120_000);
  const { corpusId, folder, email } = await signIn(page);
  await visit(
    page,
    '/browse/',
    'project list',
    page.getByRole('link', { name: `Die Krieger ${email}`, exact: true }),
  );
  await visit(page, '/corpus/new', 'new project form');
  await visit(
    page,
    `/browse/${corpusId}?top_level=true`,
    'project page',
    page.getByRole('link', { name: FOLDER, exact: true }),
  );
  await visit(
    page,
    `/element/${folder.id}`,
    'folder page',
    page.getByRole('link', { name: LAUBE_PAGE, exact: true }),
  );
  await test.step('folder page with the folder and annotations trees', async () => {
    await showTree(page, 'folder tree');
    await showTree(page, 'annotations tree');
    await expect(page.getByRole('button', { name: /^Expand / }).first()).toBeVisible();
    await expectReadsWell(page, 'folder page with trees');
  });
  await test.step('offline storage dialog', async () => {
    await elementMenu(page, 'Display', 'Make available offline');
    const dialog = page.getByRole('dialog', { name: 'Make available offline' });
    await expect(dialog.getByRole('button', { name: 'Download' })).toBeVisible();
    await expectReadsWell(page, 'make available offline dialog');
    await dialog.getByRole('button', { name: 'Close' }).click();
  });
  await visit(page, `/corpus/${corpusId}`, 'project settings');
});

test('the element page, its modes and dialogs read well', async ({ page }) => {
  test.setTimeout(120_000);
  const { pageElement, line } = await signIn(page);
  const details = page.getByRole('complementary', { name: 'Element details' });
  await visit(page, `/element/${pageElement.id}`, 'element page with its details', details);
  await visit(
    page,
    `/element/${pageElement.id}?highlight=${line.id}`,
    'element page with a line picked',
    details.getByRole('heading', { name: line.name }).first(),
  );
  await test.step('annotation mode', async () => {
    const toggle = page.getByRole('button', { name: 'Annotation mode' });
    await toggle.click();
    await expect(page.getByRole('region', { name: 'Annotation tools' })).toBeVisible();
    await expectReadsWell(page, 'element page in annotation mode');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  });
  await test.step('project exports dialog', async () => {
    await elementMenu(page, 'Import/Export', 'Project exports');
    const dialog = page.getByRole('dialog', { name: 'Project exports' });
    await expect(dialog.getByRole('button', { name: 'Start export' })).toBeVisible();
    await expectReadsWell(page, 'project exports dialog');
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
  });
  await visit(page, `/image/${pageElement.zone.image.id}`, 'image elements');
});

test('search, the selection and a dataset read well', async ({ page }) => {
  test.setTimeout(120_000);
  const { corpusId, dataset } = await signIn(page);
  await test.step('search with results', async () => {
    await page.goto(`/search/${corpusId}`);
    await settled(page);
    await page.getByRole('searchbox', { name: 'Query' }).fill('Laube');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(
      page.getByRole('list', { name: 'Search results' }).getByRole('listitem').first(),
    ).toBeVisible();
    await expectReadsWell(page, 'search results');
  });
  await visit(
    page,
    '/elements/selected',
    'selection',
    page.getByRole('link', { name: LAUBE_PAGE, exact: true }),
  );
  await visit(page, `/dataset/${dataset.id}`, 'dataset page');
});

test('imports, background jobs, processes, workers and models read well', async ({ page }) => {
  test.setTimeout(120_000);
  const { corpusId, model } = await signIn(page);
  await page.goto(`/process/files/${corpusId}`);
  await settled(page);
  await page
    .getByLabel('Files to upload')
    .setInputFiles(
      ['0_36c2c_default.jpg', '0_36c2c_default.xml'].map((file) => path.join(CREMMA, file)),
    );
  const start = page.getByRole('button', { name: 'Import 2 files' });
  await expect(start).toBeEnabled({ timeout: 30_000 });
  await expectReadsWell(page, 'import files');
  await start.click();
  await expect(page.getByRole('heading', { name: 'Import finished' })).toBeVisible({
    timeout: 60_000,
  });
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: /^Background jobs/ })
    .click();
  const jobs = page.getByRole('dialog', { name: 'Background jobs' });
  await expect(jobs.getByRole('listitem').first()).toBeVisible();
  await expectReadsWell(page, 'background jobs dialog');
  await jobs.getByRole('button', { name: 'Close' }).click();
  await visit(page, '/process/', 'processes');
  const process = page
    .getByRole('main')
    .getByRole('link', { name: /import/i })
    .first();
  await process.click();
  await expect(page).toHaveURL(/\/process\/[0-9a-f-]{36}/);
  await settled(page);
  await expectReadsWell(page, 'process page');
  await visit(page, '/process/workers/', 'workers');
  await page.getByRole('main').getByRole('link').first().click();
  await expect(page).toHaveURL(/\/process\/workers\/[0-9a-f-]{36}/);
  await settled(page);
  await expectReadsWell(page, 'worker page');
  await visit(page, '/process/worker-runs', 'worker runs');
  await visit(page, '/models', 'models');
  await visit(page, `/model/${model.id}`, 'model page');
});

test('the account, pending changes and administration screens read well', async ({ page }) => {
  test.setTimeout(120_000);
  const { corpusId } = await signIn(page);
  await visit(page, '/user/profile', 'profile');
  await visit(page, '/sync', 'pending changes');
  await test.step('pending changes dialog', async () => {
    await page.goto(`/browse/`);
    await settled(page);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('button', { name: /^Pending changes/ })
      .click();
    const pending = page.getByRole('dialog', { name: 'Pending changes' });
    await expect(pending.getByRole('heading', { name: 'Pending changes' })).toBeVisible();
    await expectReadsWell(page, 'pending changes dialog');
    await page.keyboard.press('Escape');
  });
  await visit(page, '/admin/', 'admin: users');
  await visit(page, '/admin/projects/', 'admin: projects');
  await visit(page, `/admin/projects/${corpusId}`, 'admin: a project');
});
