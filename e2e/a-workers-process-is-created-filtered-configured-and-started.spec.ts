import { expect, test } from '@playwright/test';
import { ServerApi, signInWithBlankPage } from './support/annotation';
import { grantWorkerManagement } from './support/workerManager';

test.use({ viewport: { width: 1280, height: 900 } });

interface Created {
  id: string;
}

test('a project admin creates a workers process, narrows its elements, configures two workers and starts them', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const shots = test.info().outputPath();
  const suffix = Date.now().toString(36);
  const blank = await signInWithBlankPage(page, 'Process', 'process-admin');
  grantWorkerManagement(blank.email);
  const api = new ServerApi(page);

  // Three lines on the page, a worker with an available version, and two configurations, one
  // of them archived, through the API.
  for (const [index, y] of [200, 600, 1000].entries()) {
    await api.createZone(blank, `Line ${index + 1}`, 'text_line', [
      [100, y],
      [1100, y],
      [1100, y + 120],
      [100, y + 120],
    ]);
  }
  const worker = await api.post<Created>('/workers/', {
    name: `Line recognizer ${suffix}`,
    slug: `line-recognizer-${suffix}`,
    type: 'recognizer',
  });
  const version = await api.post<Created>(`/workers/${worker.id}/versions/`, {
    configuration: {
      user_configuration: { batch_size: { title: 'Batch size', type: 'int', default: 8 } },
    },
    state: 'available',
    tag: 'v1',
  });
  const segmenter = await api.post<Created>('/workers/', {
    name: `Line segmenter ${suffix}`,
    slug: `line-segmenter-${suffix}`,
    type: 'dla',
  });
  await api.post(`/workers/${segmenter.id}/versions/`, { state: 'available', tag: 'v3' });
  await api.post(`/workers/${worker.id}/configurations/`, {
    name: 'Fast',
    configuration: { batch_size: 16 },
    worker_version_id: version.id,
  });
  const retired = await api.post<Created>(`/workers/${worker.id}/configurations/`, {
    name: 'Retired',
    configuration: { batch_size: 2 },
    worker_version_id: version.id,
  });
  const archive = await page.request.patch(`/api/v1/workers/configurations/${retired.id}/`, {
    data: { archived: true },
    headers: {
      'x-csrftoken':
        (await page.context().cookies()).find((c) => c.name === 'arkindex.csrf')?.value ?? '',
    },
  });
  expect(archive.status()).toBe(200);

  await test.step('the project page creates a process over the whole project', async () => {
    await page.goto(`/browse/${blank.corpusId}`);
    await page.getByRole('button', { name: 'Create a process', exact: true }).click();
    await expect(page).toHaveURL(/\/process\/[0-9a-f-]{36}\/filter$/);
    await expect(page.getByRole('heading', { name: '4 elements', level: 2 })).toBeVisible();
  });

  await test.step('a type filter narrows the elements to the lines', async () => {
    await page.getByLabel('Element type').selectOption({ label: 'Text line' });
    await expect(page.getByRole('heading', { name: '3 elements', level: 2 })).toBeVisible();
    await page.getByLabel('Name contains').fill('Line 2');
    await expect(page.getByRole('heading', { name: '1 element', level: 2 })).toBeVisible();
    await page.getByLabel('Name contains').fill('');
    await expect(page.getByRole('heading', { name: '3 elements', level: 2 })).toBeVisible();
    await expect(page.getByRole('article')).toHaveCount(3);
    await page.screenshot({ path: `${shots}/process-filter.png`, fullPage: true });
    // On a phone the filters stack above two columns of cards.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${shots}/process-filter-phone.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  await test.step('a worker is added with an enabled configuration', async () => {
    await page.getByRole('link', { name: 'Configure workers' }).click();
    await expect(page).toHaveURL(/\/process\/[0-9a-f-]{36}\/configure$/);
    await expect(page.getByText('This process has no workers yet.')).toBeVisible();
    await page.getByRole('button', { name: 'Add a worker' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a worker' });
    await dialog.getByLabel('Search workers').fill(suffix);
    await dialog
      .getByLabel('Worker', { exact: true })
      .selectOption({ label: `Line recognizer ${suffix} (line-recognizer-${suffix})` });
    await expect(dialog.getByLabel('Version')).toHaveValue(version.id);
    await dialog.getByRole('button', { name: 'Add' }).click();
    const run = page.getByRole('article', { name: `Line recognizer ${suffix}` });
    await expect(run).toBeVisible();
    const configuration = run.getByLabel('Configuration');
    await expect(configuration.getByRole('option')).toHaveText(['No configuration', 'Fast']);
    await configuration.selectOption({ label: 'Fast' });
    await expect(configuration).not.toBeDisabled();
  });

  await test.step('a second worker runs first, and a cycle between them is refused', async () => {
    await page.getByRole('button', { name: 'Add a worker' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a worker' });
    await dialog.getByLabel('Search workers').fill(`segmenter ${suffix}`);
    await dialog
      .getByLabel('Worker', { exact: true })
      .selectOption({ label: `Line segmenter ${suffix} (line-segmenter-${suffix})` });
    await expect(dialog.getByLabel('Version')).toHaveValue(/.+/);
    await dialog.getByRole('button', { name: 'Add' }).click();
    const recognizer = page.getByRole('article', { name: `Line recognizer ${suffix}` });
    const segmenterRun = page.getByRole('article', { name: `Line segmenter ${suffix}` });
    await expect(segmenterRun).toBeVisible();
    // The box shows what the server holds: checked once it has saved the parent.
    await recognizer
      .getByRole('checkbox', { name: new RegExp(`Line segmenter ${suffix}`) })
      .click();
    await expect(
      recognizer.getByRole('checkbox', { name: new RegExp(`Line segmenter ${suffix}`) }),
    ).toBeChecked();
    await segmenterRun
      .getByRole('checkbox', { name: new RegExp(`Line recognizer ${suffix}`) })
      .click();
    await expect(page.getByText('Worker runs cannot form a cycle.')).toBeVisible();
    await expect(
      segmenterRun.getByRole('checkbox', { name: new RegExp(`Line recognizer ${suffix}`) }),
    ).not.toBeChecked();
    await expect(
      recognizer.getByRole('checkbox', { name: new RegExp(`Line segmenter ${suffix}`) }),
    ).toBeChecked();
    await page.screenshot({ path: `${shots}/process-configure.png`, fullPage: true });
  });

  await test.step('the start splits the lines in two chunks and opens the details', async () => {
    await page.getByLabel('Chunks').fill('2');
    await page.getByRole('button', { name: 'Start process' }).click();
    await expect(page).toHaveURL(/\/process\/[0-9a-f-]{36}$/);
    const processId = new URL(page.url()).pathname.split('/')[2]!;
    const started = await api.get<{
      chunks: number;
      started: string | null;
      tasks: { slug: string }[];
    }>(`/process/${processId}/`);
    expect(started.chunks).toBe(2);
    expect(started.started).not.toBeNull();
    // One task per worker and chunk, named after the worker and its chunk.
    expect(started.tasks).toHaveLength(4);
    for (const task of started.tasks) {
      expect(task.slug).toMatch(new RegExp(`^line-(recognizer|segmenter)-${suffix}_\\d+$`));
    }
    await page.screenshot({ path: `${shots}/process-started.png`, fullPage: true });
  });
});
