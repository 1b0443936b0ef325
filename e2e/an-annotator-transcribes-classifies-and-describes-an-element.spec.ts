import { expect, test } from '@playwright/test';
import {
  DetailsPanel,
  IMPORT_RUN,
  signInWithImportedLine,
  type ApiElement,
  type ApiMetadata,
  type ApiTranscription,
  type Listed,
} from './support/details';

test('an annotator transcribes, classifies and describes a line, online and offline, each edit reaching the server once', async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  const shots = test.info().outputPath();
  const { api, line } = await signInWithImportedLine(page);
  const details = new DetailsPanel(page);
  await details.open(line.id, line.name);

  // The imported reading, and the worker run that made it.
  const reading = details.transcription('Novelle');
  await expect(reading.getByRole('button', { name: 'Copy' })).toBeVisible();
  await reading.getByRole('button', { name: IMPORT_RUN }).click();
  const run = page.getByRole('dialog', { name: 'Worker run details' });
  await expect(run.getByText('File import', { exact: true })).toBeVisible();
  await expect(run.getByText('No model.')).toBeVisible();
  await expect(run.getByText('No configuration.')).toBeVisible();
  await expect(run.getByRole('link', { name: 'Process' })).toBeVisible();
  await page.screenshot({ path: `${shots}/worker-run.png` });
  await run.getByRole('button', { name: 'Close' }).click();
  await expect(run).toHaveCount(0);

  // Online: a transcription written, then corrected; a class; metadata of three types.
  await details.addTranscription('Novelle, en ligne', 'Transcription created.');
  await details.editTranscription(
    'Novelle, en ligne',
    'Novelle (online)',
    'Transcription updated.',
  );
  await details.classify('tit', 'Title');
  await expect(details.classification('Title')).toContainText('100%');
  const refused = await details.fillMetadata('Lines (numeric)', 'eight');
  await expect(refused.getByText('Value must be a valid number')).toBeVisible();
  await page.screenshot({ path: `${shots}/metadata-refused.png` });
  await refused.getByLabel('Value').fill('8');
  await refused.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(details.metadata.getByText('8', { exact: true })).toBeVisible();
  await details.addMetadata('Printed (date)', '1837', 'Metadata created.');
  await details.addMetadata('Source (url)', 'https://example.org/laube', 'Metadata created.');
  await details.synced();
  await details.shot('online', shots);

  // This tab keeps working without the network: the service worker serves the app.
  await page.evaluate(async () => navigator.serviceWorker.ready);
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await expect(details.transcription('Novelle (online)')).toBeVisible();

  await context.setOffline(true);
  await expect(page.getByText('You are offline')).toBeVisible();
  const saved = 'Saved on this device: the change will be sent when the network returns.';
  await details.addTranscription('von, hors ligne', saved);
  await details.editTranscription('von, hors ligne', 'von (offline)', saved);
  await details.editTranscription('Novelle (online)', 'Novelle (online, then offline)', saved);
  await details.classify('impr', 'Imprint');
  // The class given online is taken back: a manual classification rejected is deleted.
  await details.classification('Title').getByRole('button', { name: 'Delete Title' }).click();
  await expect(details.classification('Title')).toHaveCount(0);
  await details.addMetadata('Folio (text)', '7r', saved);
  await expect(details.navbar.getByText(/\d+ pending/)).toBeVisible();

  // Reloaded with the network still off: every edit is still there.
  await page.reload();
  await expect(details.transcription('von (offline)')).toBeVisible();
  await expect(details.transcription('Novelle (online, then offline)')).toBeVisible();
  await expect(details.classification('Imprint')).toBeVisible();
  await expect(details.classification('Title')).toHaveCount(0);
  await expect(details.metadata.getByText('7r', { exact: true })).toBeVisible();
  await expect(details.metadata.getByText('https://example.org/laube')).toBeVisible();
  await expect(details.navbar.getByText(/\d+ pending/)).toBeVisible();
  await details.shot('offline-reloaded', shots);

  await context.setOffline(false);
  await expect(page.getByText('You are offline')).toBeHidden({ timeout: 30_000 });
  await details.synced();
  await details.shot('synced', shots);

  // The server has each edit exactly once.
  const transcriptions = await api.get<Listed<ApiTranscription>>(
    `/element/${line.id}/transcriptions/?page_size=100`,
  );
  expect(
    transcriptions.results.map((item) => `${item.worker_run?.summary ?? 'manual'}: ${item.text}`),
  ).toEqual([
    `${IMPORT_RUN}: Novelle`,
    'manual: Novelle (online, then offline)',
    'manual: von (offline)',
  ]);
  const element = await api.get<ApiElement>(`/element/${line.id}/`);
  expect(element.classifications.map((c) => `${c.ml_class.name} ${c.state}`).sort()).toEqual([
    'Imprint validated',
  ]);
  const metadata = await api.get<ApiMetadata[]>(`/element/${line.id}/metadata/`);
  expect(metadata.map((m) => `${m.type} ${m.name}: ${m.value}`).sort()).toEqual([
    'date Printed: 1837',
    'numeric Lines: 8',
    'text Folio: 7r',
    'url Source: https://example.org/laube',
  ]);
});
