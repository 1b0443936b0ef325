import { expect, test } from '@playwright/test';
import { ServerApi } from './support/annotation';
import { makeFolderOfPages, shot, type Named } from './support/datasets';
import { signInWithNewProject } from './support/pages';

/**
 * An annotator ticks pages in two folders, finds them on the selection page under the project's
 * name, moves them all to another folder in one action, and still has them selected after a
 * reload.
 */
test('pages gathered from two folders are moved at once from the selection page', async ({
  page,
}) => {
  const { corpusId } = await signInWithNewProject(page, 'Parish registers', 'gatherer');
  const api = new ServerApi(page);
  const boxA = await makeFolderOfPages(api, corpusId, 'Box A', 2);
  const boxB = await makeFolderOfPages(api, corpusId, 'Box B', 2);
  const sorted = await api.post<Named>('/elements/create/', {
    corpus: corpusId,
    type: 'folder',
    name: 'Sorted',
  });
  const counter = page.getByRole('link', { name: /^Selection (\d+|loading)$/ });
  await expect(counter).toHaveAccessibleName('Selection 0');

  // The first page of each folder, from the project's list of pages.
  await page.goto(`/browse/${corpusId}?type=page`);
  const toggles = page.getByRole('checkbox', { name: 'Select Page 01' });
  await expect(toggles).toHaveCount(2);
  await toggles.nth(0).check();
  await toggles.nth(1).check();
  await expect(counter).toHaveAccessibleName('Selection 2');

  await counter.click();
  await expect(page).toHaveURL(/\/elements\/selected$/);
  const group = page.getByRole('region', { name: /^Parish registers/ });
  await expect(group.getByRole('heading', { level: 2 })).toHaveText(
    'Parish registers (2 elements)',
  );
  await expect(group.getByRole('article')).toHaveCount(2);
  await shot(page, 'selection-page');

  await group.getByRole('button', { name: 'Move to a folder' }).click();
  const dialog = page.getByRole('dialog', { name: 'Move elements' });
  await dialog.getByRole('radio', { name: 'Sorted' }).check();
  await shot(page, 'selection-move-modal');
  await dialog.getByRole('button', { name: 'Move' }).click();
  await expect(page.getByText('Elements moving has been scheduled.')).toBeVisible();

  // The job moves both pages, and nothing else, under Sorted.
  await expect
    .poll(async () => {
      const children = await api.get<{ results: Named[] }>(`/elements/${sorted.id}/children/`);
      return children.results.map((child) => child.id).sort();
    })
    .toEqual([boxA.pages[0]!.id, boxB.pages[0]!.id].sort());

  // Still selected after a reload, read from this device and the server alike.
  await page.reload();
  await expect(counter).toHaveAccessibleName('Selection 2');
  await expect(group.getByRole('article')).toHaveCount(2);
  await shot(page, 'selection-page-after-move');
  // On a phone the actions wrap above two cards a row.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(group.getByRole('button', { name: 'Delete elements' })).toBeInViewport();
  await shot(page, 'selection-page-phone');
});
