/**
 * The "done when", online: an annotator builds a train/dev/test split of a folder from
 * the app, reads it set by set, walks a set from an element's page and takes a page out of it.
 */
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { ServerApi } from './support/annotation';
import {
  DatasetApi,
  DatasetPage,
  ElementDatasets,
  createDatasetFromMenu,
  makeFolderOfPages,
  populateFromFolder,
  shot,
} from './support/datasets';
import { signInWithNewProject } from './support/pages';

const DATASET = 'Line model split';
/** More pages than drawn, so the draw has a choice; 30 drawn puts 24 in train, over a page of 20. */
const PAGES = 36;
const DRAWN = 30;

test('an annotator builds a train/dev/test split of a folder, reads it set by set, walks a set from a page and takes one out', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const { corpusId } = await signInWithNewProject(page, 'Parish registers', 'annotator');
  const api = new ServerApi(page);
  const server = new DatasetApi(api);
  const { folder, pages } = await makeFolderOfPages(api, corpusId, 'Register 1789', PAGES);
  const folderNames = new Set(pages.map((item) => item.name));
  const datasetPage = new DatasetPage(page);
  let datasetId = '';

  await test.step('a dataset is created from the folder page’s Project menu', async () => {
    await page.goto(`/element/${folder.id}`);
    await expect(page.getByRole('heading', { name: folder.name, exact: true })).toBeVisible();
    datasetId = await createDatasetFromMenu(page, DATASET);
    await expect(datasetPage.bar('train', 0)).toBeVisible();
    await expect(datasetPage.bar('dev', 0)).toBeVisible();
    await expect(datasetPage.bar('test', 0)).toBeVisible();
    await shot(page, 'split-1-created');
    const created = await server.dataset(datasetId);
    expect(created.sets.map((set) => set.name).sort()).toEqual(['dev', 'test', 'train']);
    expect(created.state).toBe('open');
  });

  await test.step('populated from the folder with the 80/10/10 offered', async () => {
    await page.goto(`/element/${folder.id}`);
    await expect(page.getByRole('heading', { name: folder.name, exact: true })).toBeVisible();
    // The Project menu now lists it, open.
    await page
      .getByRole('navigation', { name: 'Element navigation' })
      .getByRole('button', { name: 'Project', exact: true })
      .click();
    await expect(page.getByRole('menuitem', { name: `${DATASET} Open` })).toHaveAttribute(
      'href',
      `/dataset/${datasetId}`,
    );
    await page.keyboard.press('Escape');
    const dialog = await populateFromFolder(page, DRAWN);
    await expect(dialog.getByLabel('Dataset')).toHaveValue(datasetId);
    await expect(dialog.getByLabel('train', { exact: true })).toHaveValue('80');
    await expect(dialog.getByLabel('dev', { exact: true })).toHaveValue('10');
    await expect(dialog.getByLabel('test', { exact: true })).toHaveValue('10');
    await shot(page, 'split-2-populate-modal');
    await dialog.getByRole('button', { name: 'Populate', exact: true }).click();
    await expect(
      page.getByText(`${DRAWN} elements have been successfully distributed.`),
    ).toBeVisible({ timeout: 60_000 });
    await expect(page).toHaveURL(new RegExp(`/dataset/${datasetId}`));
    await expect(page.getByRole('heading', { level: 1, name: DATASET })).toBeVisible();
  });

  await test.step('the dataset page charts the sets and lists each, 20 at a time, m for more', async () => {
    await expect(datasetPage.bar('train', 24)).toBeVisible();
    await expect(datasetPage.bar('dev', 3)).toBeVisible();
    await expect(datasetPage.bar('test', 3)).toBeVisible();
    // Sets come in name order: dev is shown first.
    await expect(datasetPage.tab('dev')).toHaveAttribute('aria-selected', 'true');
    await expect(datasetPage.list('dev').getByRole('article')).toHaveCount(3);
    await datasetPage.tab('train').click();
    await expect(page).toHaveURL(/[?&]set=train/);
    await expect(datasetPage.list('train').getByRole('article')).toHaveCount(20);
    await expect(datasetPage.shown('train', 20, 24)).toBeVisible();
    await shot(page, 'split-3-dataset-page');
    await page.keyboard.press('m');
    await expect(datasetPage.list('train').getByRole('article')).toHaveCount(24);
    await expect(datasetPage.shown('train', 24, 24)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);
    const train = await datasetPage.names('train');
    expect(train).toEqual([...train].sort());
    for (const name of train) expect(folderNames.has(name), name).toBe(true);

    await datasetPage.tab('dev').click();
    await expect(page).toHaveURL(/[?&]set=dev/);
    await expect(datasetPage.list('dev').getByRole('article')).toHaveCount(3);
    await expect(datasetPage.list('train')).toHaveCount(0);
    const dev = await datasetPage.names('dev');
    expect(dev.filter((name) => train.includes(name))).toEqual([]);
    await shot(page, 'split-4-dev-tab');

    const stored = await server.dataset(datasetId);
    expect(stored.state).toBe('complete');
    expect(stored.set_elements).toEqual({ train: 24, dev: 3, test: 3 });
    expect(await server.setMembers(datasetId, 'train')).toEqual(train);
  });

  let train: string[] = [];
  await test.step('an element opened from the train list shows its dataset and set, and next leads along the set', async () => {
    await datasetPage.tab('train').click();
    // Back on the tab, the pages read so far are still there.
    await expect(datasetPage.list('train').getByRole('article')).toHaveCount(24);
    train = await server.setMembers(datasetId, 'train');
    await datasetPage.list('train').getByRole('link', { name: train[0], exact: true }).click();
    await expect(page.getByRole('heading', { name: train[0], exact: true })).toBeVisible();
    const datasets = new ElementDatasets(page);
    await expect(datasets.section.getByRole('columnheader', { name: 'Name' })).toBeVisible();
    await expect(datasets.section.getByRole('columnheader', { name: 'Set' })).toBeVisible();
    const row = datasets.row(DATASET);
    await expect(row).toHaveCount(1);
    await expect(row.getByRole('cell').nth(1)).toHaveText('train');
    // The first of its set: nothing before it.
    await expect(
      datasets.section.getByRole('link', { name: `Previous element in train of ${DATASET}` }),
    ).toHaveAttribute('aria-disabled', 'true');
    await shot(page, 'split-5-element-datasets');

    await datasets.next('train', DATASET).click();
    await expect(page.getByRole('heading', { name: train[1], exact: true })).toBeVisible();
    await expect(datasets.row(DATASET).getByRole('cell').nth(1)).toHaveText('train');
    await datasets.next('train', DATASET).click();
    await expect(page.getByRole('heading', { name: train[2], exact: true })).toBeVisible();
    await datasets.previous('train', DATASET).click();
    await expect(page.getByRole('heading', { name: train[1], exact: true })).toBeVisible();
  });

  await test.step('a complete dataset is reopened from its page to be corrected', async () => {
    const datasets = new ElementDatasets(page);
    const remove = datasets.section.getByRole('button', {
      name: `Remove from train of ${DATASET}`,
    });
    await expect(remove).toHaveAttribute('aria-disabled', 'true');
    await expect(remove).toHaveAttribute('title', 'Only open datasets can be edited');
    await datasets.section.getByRole('link', { name: DATASET, exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: DATASET })).toBeVisible();
    await page.getByRole('button', { name: 'Reopen', exact: true }).click();
    await expect(page.getByText('Dataset reopened').first()).toBeVisible();
    await expect.poll(async () => (await server.dataset(datasetId)).state).toBe('open');
    await page.goBack();
    await expect(page.getByRole('heading', { name: train[1], exact: true })).toBeVisible();
    // Its row now reads the dataset open: nothing read before the reopening stays.
    await expect(remove).not.toHaveAttribute('aria-disabled', 'true');
  });

  await test.step('taken out of train after the confirmation: the server has one fewer', async () => {
    const datasets = new ElementDatasets(page);
    const removed = pages.find((item) => item.name === train[1])!;
    await datasets.remove('train', DATASET);
    await expect(
      page.getByText('The element has been removed from the dataset set.').first(),
    ).toBeVisible();
    await expect(datasets.row(DATASET)).toHaveCount(0);
    await expect(datasets.section.getByText('No datasets', { exact: true })).toBeVisible();
    await shot(page, 'split-6-removed');
    await datasets.synced();
    await expect.poll(() => server.setCount(datasetId, 'train')).toBe(23);
    expect(await server.elementSets(removed.id)).toEqual([]);
    expect(await server.setMembers(datasetId, 'train')).toEqual(
      train.filter((name) => name !== removed.name),
    );

    // The page before it now leads straight to the one after it.
    const before = pages.find((item) => item.name === train[0])!;
    await page.goto(`/element/${before.id}`);
    await expect(page.getByRole('heading', { name: train[0], exact: true })).toBeVisible();
    await datasets.next('train', DATASET).click();
    await expect(page.getByRole('heading', { name: train[2], exact: true })).toBeVisible();

    await datasetPage.open(datasetId, DATASET, 'train');
    await expect(datasetPage.bar('train', 23)).toBeVisible();
    await expect(datasetPage.tab('train')).toHaveAttribute('aria-selected', 'true');
    await expect(datasetPage.shown('train', 20, 23)).toBeVisible();
    await page.keyboard.press('m');
    await expect(datasetPage.list('train').getByRole('article')).toHaveCount(23);
    await expect(
      datasetPage.list('train').getByRole('link', { name: removed.name, exact: true }),
    ).toHaveCount(0);
  });

  await test.step('the corrected train set downloads as CSV, one line per page', async () => {
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download CSV of set train' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`${DATASET} train.csv`);
    const lines = fs
      .readFileSync(await file.path(), 'utf8')
      .trim()
      .split(/\r?\n/);
    expect(lines[0]).toBe('element_id,name,type,set,image_url');
    const rows = lines.slice(1).map((line) => line.split(','));
    expect(rows.map((row) => row[1])).toEqual(await server.setMembers(datasetId, 'train'));
    expect(rows).toHaveLength(23);
    for (const row of rows) {
      expect(row[2]).toBe('page');
      expect(row[3]).toBe('train');
      expect(pages.find((item) => item.name === row[1])?.id).toBe(row[0]);
    }
  });
});
