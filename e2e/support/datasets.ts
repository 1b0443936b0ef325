import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { ServerApi } from './annotation';
import { signInWithNewProject } from './pages';

/** A dataset as GET /datasets/{id}/ answers it. */
export interface ApiDataset {
  id: string;
  name: string;
  state: string;
  sets: { id: string; name: string }[];
  set_elements: Record<string, number>;
  created: string;
}

/** One entry of GET /element/{id}/sets/. */
export interface ApiElementSet {
  dataset: { id: string; name: string };
  set: string;
  previous: string | null;
  next: string | null;
}

export interface Named {
  id: string;
  name: string;
}

export interface FolderOfPages {
  folder: Named;
  /** In name order, which is the order of a set's list and of its neighbours. */
  pages: Named[];
}

/** Two-digit numbers, so names sort as the pages were made. */
export const pageName = (index: number) => `Page ${String(index + 1).padStart(2, '0')}`;

/**
 * A folder of `count` pages made through the API, as an import would leave them: membership
 * needs no image, and a page without one still opens.
 */
export async function makeFolderOfPages(
  api: ServerApi,
  corpusId: string,
  folderName: string,
  count: number,
): Promise<FolderOfPages> {
  const folder = await api.post<Named>('/elements/create/', {
    corpus: corpusId,
    type: 'folder',
    name: folderName,
  });
  const pages: Named[] = [];
  for (let index = 0; index < count; index += 1) {
    pages.push(
      await api.post<Named>('/elements/create/', {
        corpus: corpusId,
        type: 'page',
        name: pageName(index),
        parent: folder.id,
      }),
    );
  }
  return { folder, pages };
}

/** What the server holds, read apart from the app. */
export class DatasetApi {
  constructor(private readonly api: ServerApi) {}

  dataset(id: string): Promise<ApiDataset> {
    return this.api.get<ApiDataset>(`/datasets/${id}/`);
  }

  async setCount(id: string, set: string): Promise<number> {
    return (await this.dataset(id)).set_elements[set] ?? 0;
  }

  async elementSets(elementId: string): Promise<ApiElementSet[]> {
    return (await this.api.get<{ results: ApiElementSet[] }>(`/element/${elementId}/sets/`))
      .results;
  }

  /** Every element of a set, by name. */
  async setMembers(id: string, set: string): Promise<string[]> {
    const answer = await this.api.get<{ results: { element: Named }[] }>(
      `/datasets/${id}/elements/?set=${encodeURIComponent(set)}&page_size=500`,
    );
    return answer.results.map((row) => row.element.name);
  }

  create(corpusId: string, name: string): Promise<ApiDataset> {
    return this.api.post<ApiDataset>(`/corpus/${corpusId}/datasets/`, {
      name,
      description: `${name}, made for a test`,
    });
  }

  async add(datasetId: string, set: string, elementId: string): Promise<void> {
    await this.api.post(`/datasets/${datasetId}/elements/`, { set, element_id: elementId });
  }
}

/** The element page's header menu, one section at a time. */
export async function openMenu(page: Page, section: string, item: string): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Element navigation' })
    .getByRole('button', { name: section, exact: true })
    .click();
  await page.getByRole('menuitem', { name: item, exact: true }).click();
}

/** "Create a dataset" from the Project section; the app opens the new dataset's page. */
export async function createDatasetFromMenu(page: Page, name: string): Promise<string> {
  await openMenu(page, 'Project', 'Create a dataset');
  const dialog = page.getByRole('dialog', { name: 'Create a dataset' });
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  await dialog.getByLabel('Description', { exact: true }).fill(`${name}: pages for the line model`);
  await dialog.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page).toHaveURL(/\/dataset\/[0-9a-f-]{36}/);
  return new URL(page.url()).pathname.split('/')[2]!;
}

/**
 * "Populate a dataset" from a folder's Elements section: its only open dataset is chosen for
 * the user, the ratios stay as offered, pages of the given number are drawn.
 */
export async function populateFromFolder(page: Page, count: number): Promise<Locator> {
  await openMenu(page, 'Elements', 'Populate a dataset');
  const dialog = page.getByRole('dialog', { name: 'Populate dataset' });
  await dialog.getByLabel('Page', { exact: true }).check();
  await dialog.getByLabel('Number of elements').fill(String(count));
  return dialog;
}

/** The dataset page as a user reads it: the chart's rows, the set tabs and their lists. */
export class DatasetPage {
  readonly chart: Locator;
  readonly tabs: Locator;

  constructor(readonly page: Page) {
    this.chart = page.getByRole('list', { name: 'Elements per set' });
    this.tabs = page.getByRole('tablist', { name: 'Sets' });
  }

  /** The dataset's page, showing `set` (the first set by name when none). */
  async open(id: string, name: string, set?: string): Promise<void> {
    await this.page.goto(`/dataset/${id}${set ? `?set=${encodeURIComponent(set)}` : ''}`);
    await expect(this.page.getByRole('heading', { level: 1, name })).toBeVisible();
  }

  /** The chart's row of a set, read as "train: 24 elements". */
  bar(set: string, count: number): Locator {
    return this.chart.getByRole('listitem', {
      name: `${set}: ${count} ${count === 1 ? 'element' : 'elements'}`,
      exact: true,
    });
  }

  tab(set: string): Locator {
    return this.tabs.getByRole('tab').filter({ hasText: new RegExp(`^${set}\\s*\\d+$`) });
  }

  list(set: string): Locator {
    return this.page.getByRole('list', { name: `Elements of set ${set}` });
  }

  /** The names of the cards listed in a set, in order. */
  async names(set: string): Promise<string[]> {
    return this.list(set).getByRole('heading', { level: 3 }).allTextContents();
  }

  shown(set: string, shown: number, total: number): Locator {
    return this.page.getByRole('tabpanel').getByText(`${shown} of ${total} shown`, { exact: true });
  }
}

/** The details panel's Datasets section: one row per set the element is in. */
export class ElementDatasets {
  readonly section: Locator;
  readonly navbar: Locator;

  constructor(readonly page: Page) {
    this.section = page
      .getByRole('complementary', { name: 'Element details' })
      .getByRole('region', { name: 'Datasets', exact: true });
    this.navbar = page.getByRole('navigation', { name: 'Main' });
  }

  row(dataset: string): Locator {
    return this.section.getByRole('row').filter({
      has: this.page.getByRole('link', { name: dataset, exact: true }),
    });
  }

  next(set: string, dataset: string): Locator {
    return this.section.getByRole('link', { name: `Next element in ${set} of ${dataset}` });
  }

  previous(set: string, dataset: string): Locator {
    return this.section.getByRole('link', { name: `Previous element in ${set} of ${dataset}` });
  }

  /** The remove icon, then the confirmation's Remove. */
  async remove(set: string, dataset: string): Promise<void> {
    await this.section.getByRole('button', { name: `Remove from ${set} of ${dataset}` }).click();
    const confirm = this.page.getByRole('dialog', { name: 'Remove element from dataset set' });
    await expect(confirm).toContainText(`from the set ${set} of the dataset “${dataset}”`);
    await confirm.getByRole('button', { name: 'Remove', exact: true }).click();
    await expect(confirm).toHaveCount(0);
  }

  async synced(): Promise<void> {
    await expect(this.navbar.getByText(/\d+ pending/)).toBeHidden({ timeout: 30_000 });
  }
}

/**
 * A screenshot of a key step, in FOLIA_E2E_SHOTS_DIR when set (to look at them together), in
 * the test's output otherwise.
 */
export async function shot(page: Page, name: string): Promise<void> {
  const folder = process.env.FOLIA_E2E_SHOTS_DIR;
  await page.screenshot({
    path: folder ? path.join(folder, `${name}.png`) : test.info().outputPath(`${name}.png`),
    fullPage: true,
  });
}

/**
 * A project with a folder of six pages, the first four in train and the fifth in dev of a
 * dataset made through the API, the sixth in none; the folder then made available offline
 * from its page.
 */
export async function folderTakenOffline(page: Page, datasetName: string) {
  const { corpusId } = await signInWithNewProject(page, 'Field notebooks', 'offline-annotator');
  const api = new ServerApi(page);
  const server = new DatasetApi(api);
  const { folder, pages } = await makeFolderOfPages(api, corpusId, 'Notebook 3', 6);
  const dataset = await server.create(corpusId, datasetName);
  for (const member of pages.slice(0, 4)) await server.add(dataset.id, 'train', member.id);
  await server.add(dataset.id, 'dev', pages[4]!.id);

  await page.goto(`/element/${folder.id}`);
  await expect(page.getByRole('heading', { name: folder.name, exact: true })).toBeVisible();
  // The service worker must control the page for the app to open offline.
  await page.evaluate(async () => navigator.serviceWorker.ready);
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await openMenu(page, 'Display', 'Make available offline');
  const dialog = page.getByRole('dialog', { name: 'Make available offline' });
  await dialog.getByRole('button', { name: 'Download' }).click();
  await expect(dialog.getByText(/^Available offline: /)).toBeVisible({ timeout: 120_000 });
  await dialog.getByRole('button', { name: 'Close' }).click();
  return { server, folder, pages, dataset };
}
