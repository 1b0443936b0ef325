import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { SHARED_DATA_DIR } from '../tests/server/sharedData';
import { logIn, PASSWORD, ServerApi } from './support/annotation';
import { DetailsPanel } from './support/details';
import { createUser, importWithCli, uniqueEmail } from './support/server';

/** The title page of Laube's "Die Krieger" (PAGE XML): eight lines read by the import. */
const SOURCE = path.join(SHARED_DATA_DIR, 'ocrd-gt_structure_text/laube_europa0202_1837/GT-PAGE');
const PAGE_FILE = 'laube_europa0202_1837_0007';
const IMPORT_RUN = 'Worker File import @ 1';

interface Listed<T> {
  results: T[];
}
interface ApiTranscription {
  id: string;
  text: string;
  worker_run: { id: string; summary: string } | null;
  element: { id: string; name: string };
}
interface ApiMetadata {
  type: string;
  name: string;
  value: string;
}
interface ApiElement {
  classifications: { ml_class: { name: string }; state: string; worker_run: unknown }[];
}

/** The project's owner, logged in, with the title page imported and one of its lines picked. */
async function signInWithImportedLine(page: Page) {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'folia-details-'));
  for (const ext of ['jpg', 'xml']) {
    fs.copyFileSync(
      path.join(SOURCE, `${PAGE_FILE}.${ext}`),
      path.join(folder, `${PAGE_FILE}.${ext}`),
    );
  }
  const email = uniqueEmail('annotator');
  createUser(email, PASSWORD);
  const corpusId = importWithCli(folder, `Die Krieger ${email}`, email);
  await logIn(page, email);
  const api = new ServerApi(page);
  const pages = await api.get<Listed<{ id: string }>>(`/corpus/${corpusId}/elements/?type=page`);
  const listed = await api.get<Listed<ApiTranscription>>(
    `/element/${pages.results[0]!.id}/transcriptions/?recursive=true&page_size=100`,
  );
  const imported = listed.results.find((item) => item.text === 'Novelle')!;
  expect(imported.worker_run?.summary).toBe(IMPORT_RUN);
  // What the project admin sets up beside the screens: classes and the metadata allowed.
  for (const name of ['Title', 'Imprint', 'Date']) {
    await api.post(`/corpus/${corpusId}/classes/`, { name });
  }
  for (const [type, name] of [
    ['text', 'Folio'],
    ['numeric', 'Lines'],
    ['date', 'Printed'],
    ['url', 'Source'],
  ]) {
    await api.post(`/corpus/${corpusId}/allowed-metadata/`, { type, name });
  }
  return { api, line: imported.element };
}

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
