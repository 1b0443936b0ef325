import { expect, test } from '@playwright/test';
import {
  DetailsPanel,
  classifyAsWorker,
  IMPORT_RUN,
  signInWithImportedLine,
  type ApiElement,
  type ApiMetadata,
  type ApiTranscription,
  type Listed,
} from './support/details';

test('a worker’s classifications are validated and rejected, a manual one deleted, a worker reading copied and the copy deleted', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const shots = test.info().outputPath();
  const { api, line, reading, classes } = await signInWithImportedLine(page);
  await classifyAsWorker(api, line, reading, classes);
  const states = async () => {
    const element = await api.get<ApiElement>(`/element/${line.id}/`);
    return element.classifications.map((c) => `${c.ml_class.name} ${c.state}`).sort();
  };
  const details = new DetailsPanel(page);
  await details.open(line.id, line.name);

  await test.step('a worker’s classification validated, another rejected', async () => {
    const title = details.classification('Title');
    await expect(title).toContainText('42%');
    await expect(title.getByRole('button', { name: 'worker' })).toHaveAttribute(
      'title',
      IMPORT_RUN,
    );
    await title.getByRole('button', { name: 'Validate Title' }).click();
    await expect(title.getByRole('button', { name: 'Validate Title' })).toBeDisabled();
    const imprint = details.classification('Imprint');
    await expect(imprint).toContainText('91%');
    await imprint.getByRole('button', { name: 'Reject Imprint' }).click();
    await expect(imprint.getByRole('button', { name: 'Reject Imprint' })).toBeDisabled();
    // A rejected worker result stays, struck through: it may still be validated.
    await expect(imprint.getByText('Imprint', { exact: true })).toHaveCSS(
      'text-decoration-line',
      'line-through',
    );
    await expect(imprint.getByRole('button', { name: 'Validate Imprint' })).toBeEnabled();
    await details.synced();
    expect(await states()).toEqual(['Imprint rejected', 'Title validated']);
    await details.shot('worker-classifications', shots);
  });

  await test.step('a manual classification deleted by its trash button', async () => {
    await details.classify('dat', 'Date');
    await details.synced();
    expect(await states()).toEqual(['Date validated', 'Imprint rejected', 'Title validated']);
    await details.classification('Date').getByRole('button', { name: 'Delete Date' }).click();
    await expect(details.notice('Classification deleted due to rejection.')).toBeVisible();
    await expect(details.classification('Date')).toHaveCount(0);
    await details.synced();
    expect(await states()).toEqual(['Imprint rejected', 'Title validated']);
  });

  const onServer = async () => {
    const listed = await api.get<Listed<ApiTranscription>>(
      `/element/${line.id}/transcriptions/?page_size=100`,
    );
    return listed.results.map((item) => `${item.worker_run?.summary ?? 'manual'}: ${item.text}`);
  };

  await test.step('the worker’s reading copied into a manual one, then the copy deleted', async () => {
    const worker = details.transcription('Novelle').filter({ hasText: IMPORT_RUN });
    await worker.getByRole('button', { name: 'Copy' }).click();
    await expect(details.notice('Transcription copied to a manual transcription')).toBeVisible();
    const copy = details.transcription('Novelle').filter({ hasText: 'Manual' });
    await expect(copy).toHaveCount(1);
    // The copy is the annotator's own: it is edited in place, the worker's is not.
    await expect(copy.getByRole('button', { name: 'Edit' })).toBeVisible();
    await expect(worker.getByRole('button', { name: 'Edit' })).toHaveCount(0);
    await details.synced();
    expect(await onServer()).toEqual([`${IMPORT_RUN}: Novelle`, 'manual: Novelle']);
    await details.shot('reading-copied', shots);

    await copy.getByRole('button', { name: 'Delete' }).click();
    await expect(details.notice('Transcription deleted.')).toBeVisible();
    await expect(copy).toHaveCount(0);
    await expect(worker).toHaveCount(1);
    await details.synced();
    expect(await onServer()).toEqual([`${IMPORT_RUN}: Novelle`]);
  });
});

test('metadata of each of the seven types is added with its checks, edited, deleted, and added freely by a site admin', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const shots = test.info().outputPath();
  const { api, line } = await signInWithImportedLine(page, { siteAdmin: true });
  const details = new DetailsPanel(page);
  await details.open(line.id, line.name);

  await test.step('each type refuses what it cannot hold, with the spec’s message', async () => {
    for (const [allowed, value, message] of [
      ['Folio (text)', '', 'Value may not be empty'],
      ['Lines (numeric)', 'eight', 'Value must be a valid number'],
      ['Printed (date)', '1837-02-30', 'This date is invalid'],
      ['Printed (date)', '18th c.', 'This date is invalid'],
      ['Source (url)', 'ftp://example.org/laube', 'Only HTTP and HTTPS URLs are allowed'],
      ['Source (url)', 'javascript:alert(1)', 'Only HTTP and HTTPS URLs are allowed'],
    ]) {
      const dialog = await details.fillMetadata(allowed!, value!);
      await expect(dialog.getByText(message!, { exact: true })).toBeVisible();
      if (message === 'This date is invalid') await page.screenshot({ path: `${shots}/date.png` });
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog).toHaveCount(0);
    }
    expect(await api.get<ApiMetadata[]>(`/element/${line.id}/metadata/`)).toEqual([]);
  });

  await test.step('a value of each type is added and shown as its type reads', async () => {
    await details.addMetadata('Folio (text)', '7r', 'Metadata created.');
    await details.addMetadata('Lines (numeric)', '8', 'Metadata created.');
    await details.addMetadata('Printed (date)', '1837-06', 'Metadata created.');
    await details.addMetadata('Place (location)', 'Mannheim', 'Metadata created.');
    await details.addMetadata('Shelfmark (reference)', 'Gl 1837/2', 'Metadata created.');
    await details.addMetadata('Source (url)', 'https://example.org/laube', 'Metadata created.');
    await expect(
      details.metadata.getByRole('link', { name: 'https://example.org/laube' }),
    ).toHaveAttribute('href', 'https://example.org/laube');
    // Markdown is rendered, and what it hides of HTML does not run.
    const dialog = await details.fillMetadata(
      'Note (markdown)',
      'Printed **twice** <img src=x onerror="window.ranInjected=1">',
    );
    await expect(dialog).toHaveCount(0);
    await expect(details.metadata.locator('strong', { hasText: 'twice' })).toBeVisible();
    expect(await page.evaluate(() => 'ranInjected' in window)).toBe(false);
    await details.synced();
    await details.shot('every-type', shots);
  });

  await test.step('one is edited and another deleted', async () => {
    await details.metadata.getByRole('button', { name: 'Edit Folio' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit metadata' });
    await edit.getByLabel('Value').fill('7v');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(details.notice('Metadata updated.')).toBeVisible();
    await expect(details.metadata.getByText('7v', { exact: true })).toBeVisible();
    await details.metadata.getByRole('button', { name: 'Delete Shelfmark' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete metadata' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(details.notice('Metadata deleted.')).toBeVisible();
    await expect(details.metadata.getByText('Gl 1837/2')).toHaveCount(0);
  });

  await test.step('a site admin’s free edit takes a name the project does not allow', async () => {
    await details.metadata.getByRole('button', { name: 'Add', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Add metadata' });
    await dialog.getByRole('switch').click();
    await expect(dialog.getByText('Caution! You are in free editing mode')).toBeVisible();
    await dialog.getByLabel('Type').selectOption({ label: 'Text' });
    await dialog.getByLabel('Name').fill('');
    await dialog.getByLabel('Value').fill('vellum');
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(dialog.getByText('Name may not be empty', { exact: true })).toBeVisible();
    await dialog.getByLabel('Name').fill('Binding');
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(dialog).toHaveCount(0);
    await expect(details.notice('Metadata created.')).toBeVisible();
    await details.synced();
  });

  const metadata = await api.get<ApiMetadata[]>(`/element/${line.id}/metadata/`);
  expect(metadata.map((m) => `${m.type} ${m.name}: ${m.value}`).sort()).toEqual([
    'date Printed: 1837-06',
    'location Place: Mannheim',
    'markdown Note: Printed **twice** <img src=x onerror="window.ranInjected=1">',
    'numeric Lines: 8',
    'text Binding: vellum',
    'text Folio: 7v',
    'url Source: https://example.org/laube',
  ]);
});
