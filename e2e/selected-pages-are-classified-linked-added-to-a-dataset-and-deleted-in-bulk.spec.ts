import { expect, test } from '@playwright/test';
import { ServerApi } from './support/annotation';
import { makeFolderOfPages, shot, type Named } from './support/datasets';
import { signInWithNewProject } from './support/pages';

interface ApiElement {
  classifications: { ml_class: { name: string }; state: string }[];
}

/**
 * A project admin selects a folder's pages, gives them all a class, validates it, links them to
 * a second folder, adds them to a dataset set and finally deletes them, each from the selection page in one action.
 */
test('selected pages are classified, linked, added to a dataset and deleted in bulk', async ({
  page,
}) => {
  const { corpusId } = await signInWithNewProject(page, 'Notarial acts', 'bulk');
  const api = new ServerApi(page);
  const box = await makeFolderOfPages(api, corpusId, 'Box C', 3);
  const index = await api.post<Named>('/elements/create/', {
    corpus: corpusId,
    type: 'folder',
    name: 'Index',
  });
  await api.post<Named>(`/corpus/${corpusId}/classes/`, { name: 'contract' });
  const split = await api.post<Named & { sets: { id: string; name: string }[] }>(
    `/corpus/${corpusId}/datasets/`,
    { name: 'Contracts', description: 'Training pages' },
  );
  const counter = page.getByRole('link', { name: /^Selection (\d+|loading)$/ });

  await page.goto(`/browse/${corpusId}?type=page`);
  for (const name of ['Page 01', 'Page 02']) {
    await page.getByRole('checkbox', { name: `Select ${name}` }).check();
  }
  await expect(counter).toHaveAccessibleName('Selection 2');
  await counter.click();
  const group = page.getByRole('region', { name: /^Notarial acts/ });
  await expect(group.getByRole('article')).toHaveCount(2);
  const action = (name: string) => group.getByRole('button', { name });

  // Create classifications: the class picked, on each selected page.
  await action('Create classifications').click();
  let dialog = page.getByRole('dialog', { name: 'Create classifications' });
  await dialog.getByLabel('Class', { exact: true }).fill('contr');
  await dialog.getByRole('option', { name: 'contract' }).click();
  await shot(page, 'selection-create-classifications');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText('2 classifications of contract created.')).toBeVisible();

  const states = async (id: string) =>
    (await api.get<ApiElement>(`/element/${id}/`)).classifications.map(
      (c) => `${c.ml_class.name} ${c.state}`,
    );
  expect(await states(box.pages[0]!.id)).toEqual(['contract validated']);
  expect(await states(box.pages[2]!.id)).toEqual([]);

  // Validate classifications: nothing pending left to validate for a manual class.
  await action('Validate classifications').click();
  dialog = page.getByRole('dialog', { name: 'Validate classifications' });
  await dialog.getByRole('button', { name: 'Validate' }).click();
  await expect(page.getByText('0 classifications validated.')).toBeVisible();

  // Link to a parent: the pages keep Box C and join Index.
  await action('Link to a parent').click();
  dialog = page.getByRole('dialog', { name: 'Link to another parent' });
  await dialog.getByRole('radio', { name: 'Index' }).check();
  await dialog.getByRole('button', { name: 'Link' }).click();
  await expect(page.getByText('Element linking has been scheduled.')).toBeVisible();
  const children = async (id: string) =>
    (await api.get<{ results: Named[] }>(`/elements/${id}/children/`)).results
      .map((child) => child.name)
      .sort();
  await expect.poll(() => children(index.id)).toEqual(['Page 01', 'Page 02']);
  expect(await children(box.folder.id)).toEqual(['Page 01', 'Page 02', 'Page 03']);

  // Add to a dataset: both pages go to the set picked, in one request.
  await action('Add to a dataset').click();
  dialog = page.getByRole('dialog', { name: 'Add to dataset' });
  await dialog.getByLabel('Dataset', { exact: true }).selectOption({ label: 'Contracts' });
  await dialog.getByLabel('Set', { exact: true }).selectOption({ label: 'dev' });
  await dialog.getByRole('button', { name: 'Add' }).click();
  await expect(page.getByText('Elements have been added to the dataset set.')).toBeVisible();
  const inDev = await api.get<{ results: { element: Named }[] }>(
    `/datasets/${split.id}/elements/?set=dev`,
  );
  expect(inDev.results.map((row) => row.element.name).sort()).toEqual(['Page 01', 'Page 02']);

  // Delete elements, once confirmed: the selection empties and the third page stays.
  await action('Delete elements').click();
  dialog = page.getByRole('dialog', { name: 'Delete elements' });
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Elements deletion has been scheduled.')).toBeVisible();
  await expect(page.getByText('Empty selection')).toBeVisible();
  await expect(counter).toHaveAccessibleName('Selection 0');
  await expect.poll(() => children(box.folder.id)).toEqual(['Page 03']);
  await shot(page, 'selection-after-delete');
});
