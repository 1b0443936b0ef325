/**
 * A dataset built days ago: caching bites only on such data (a browser keeps an answer whose
 * Last-Modified is days old for hours unless told otherwise). A page taken out of its set must
 * show so on the dataset page and in the details panel, after reloads too.
 */
import { expect, test } from '@playwright/test';
import { ageContent } from './support/aged';
import { ServerApi } from './support/annotation';
import {
  DatasetApi,
  DatasetPage,
  ElementDatasets,
  makeFolderOfPages,
  shot,
} from './support/datasets';
import { signInWithNewProject } from './support/pages';

const DAYS = 3;
const DATASET = 'Last week’s split';

test(`on a split made ${DAYS} days ago, a page taken out of its set shows so on the dataset page and in the details panel at once, after reloads too`, async ({
  page,
}) => {
  test.setTimeout(240_000);
  const { corpusId } = await signInWithNewProject(page, 'Aged registers', 'aged-annotator');
  const api = new ServerApi(page);
  const server = new DatasetApi(api);
  const { pages } = await makeFolderOfPages(api, corpusId, 'Register 1802', 5);
  const dataset = await server.create(corpusId, DATASET);
  for (const member of pages.slice(0, 4)) await server.add(dataset.id, 'train', member.id);
  await server.add(dataset.id, 'dev', pages[4]!.id);
  ageContent(DAYS);
  const aged = Date.now() - Date.parse((await server.dataset(dataset.id)).created);
  expect(aged, 'the dataset is dated days ago').toBeGreaterThan((DAYS - 1) * 24 * 3600 * 1000);
  const [first, removed, third] = [pages[0]!, pages[1]!, pages[2]!];
  const datasetPage = new DatasetPage(page);
  const datasets = new ElementDatasets(page);

  await test.step('read once before the change: the dataset page and the pages around it', async () => {
    await datasetPage.open(dataset.id, DATASET, 'train');
    await expect(datasetPage.bar('train', 4)).toBeVisible();
    await expect(datasetPage.bar('dev', 1)).toBeVisible();
    expect(await datasetPage.names('train')).toEqual(pages.slice(0, 4).map((item) => item.name));
    await page.goto(`/element/${first.id}`);
    await expect(datasets.next('train', DATASET)).toHaveAttribute('href', `/element/${removed.id}`);
    await page.goto(`/element/${third.id}`);
    await expect(datasets.previous('train', DATASET)).toHaveAttribute(
      'href',
      `/element/${removed.id}`,
    );
  });

  await test.step('the page taken out of train shows in no dataset, after a reload too', async () => {
    await page.goto(`/element/${removed.id}`);
    await expect(page.getByRole('heading', { name: removed.name, exact: true })).toBeVisible();
    await expect(datasets.row(DATASET).getByRole('cell').nth(1)).toHaveText('train');
    await datasets.remove('train', DATASET);
    await expect(datasets.section.getByText('No datasets', { exact: true })).toBeVisible();
    await datasets.synced();
    expect(await server.setCount(dataset.id, 'train')).toBe(3);
    await page.reload();
    await expect(page.getByRole('heading', { name: removed.name, exact: true })).toBeVisible();
    await expect(datasets.section.getByText('No datasets', { exact: true })).toBeVisible();
    await shot(page, 'aged-1-removed');
  });

  await test.step('the dataset page counts and lists train without it, after a reload too', async () => {
    const without = [first, third, pages[3]!].map((item) => item.name);
    await datasetPage.open(dataset.id, DATASET, 'train');
    await expect(datasetPage.bar('train', 3)).toBeVisible();
    await expect(datasetPage.list('train').getByRole('article')).toHaveCount(3);
    expect(await datasetPage.names('train')).toEqual(without);
    await page.reload();
    await expect(datasetPage.bar('train', 3)).toBeVisible();
    await expect(datasetPage.list('train').getByRole('article')).toHaveCount(3);
    expect(await datasetPage.names('train')).toEqual(without);
    await expect(datasetPage.bar('dev', 1)).toBeVisible();
    await shot(page, 'aged-2-dataset-page');
  });

  await test.step('its neighbours now lead to each other', async () => {
    await page.goto(`/element/${first.id}`);
    await expect(datasets.next('train', DATASET)).toHaveAttribute('href', `/element/${third.id}`);
    await datasets.next('train', DATASET).click();
    await expect(page.getByRole('heading', { name: third.name, exact: true })).toBeVisible();
    await expect(datasets.previous('train', DATASET)).toHaveAttribute(
      'href',
      `/element/${first.id}`,
    );
    await page.reload();
    await expect(datasets.previous('train', DATASET)).toHaveAttribute(
      'href',
      `/element/${first.id}`,
    );
    await shot(page, 'aged-3-neighbours');
  });

  await test.step('through the app’s links only: a page taken out from its card shows gone on the dataset page', async () => {
    const fourth = pages[3]!;
    await datasetPage.open(dataset.id, DATASET, 'train');
    await expect(datasetPage.list('train').getByRole('article')).toHaveCount(3);
    await datasetPage.list('train').getByRole('link', { name: fourth.name, exact: true }).click();
    await expect(page.getByRole('heading', { name: fourth.name, exact: true })).toBeVisible();
    await datasets.remove('train', DATASET);
    await expect(datasets.section.getByText('No datasets', { exact: true })).toBeVisible();
    await datasets.synced();
    await page.goBack();
    await expect(page.getByRole('heading', { level: 1, name: DATASET })).toBeVisible();
    await expect(datasetPage.bar('train', 2)).toBeVisible();
    await expect(datasetPage.list('train').getByRole('article')).toHaveCount(2);
    expect(await datasetPage.names('train')).toEqual([first.name, third.name]);
    await datasetPage.list('train').getByRole('link', { name: third.name, exact: true }).click();
    await expect(page.getByRole('heading', { name: third.name, exact: true })).toBeVisible();
    // The last of its set now: nothing after it.
    await expect(
      datasets.section.getByRole('link', { name: `Next element in train of ${DATASET}` }),
    ).toHaveAttribute('aria-disabled', 'true');
    expect(await server.setCount(dataset.id, 'train')).toBe(2);
  });
});
