import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import { SHARED_DATA_DIR } from '../../tests/server/sharedData';
import { logIn, PASSWORD, ServerApi } from './annotation';
import { createUser, importWithCli, uniqueEmail } from './server';

/** The title page of Laube's "Die Krieger" (PAGE XML): eight lines read by the import. */
const SOURCE = path.join(SHARED_DATA_DIR, 'ocrd-gt_structure_text/laube_europa0202_1837/GT-PAGE');
const PAGE_FILE = 'laube_europa0202_1837_0007';
export const IMPORT_RUN = 'Worker File import @ 1';

export interface Listed<T> {
  results: T[];
}
export interface ApiTranscription {
  id: string;
  text: string;
  worker_run: { id: string; summary: string } | null;
  element: { id: string; name: string };
}
export interface ApiMetadata {
  type: string;
  name: string;
  value: string;
}
export interface ApiElement {
  classifications: {
    id: string;
    ml_class: { name: string };
    state: string;
    worker_run: unknown;
  }[];
}

/** The metadata the project admin allows, one name of each of the seven types. */
export const ALLOWED_METADATA: [type: string, name: string][] = [
  ['text', 'Folio'],
  ['markdown', 'Note'],
  ['date', 'Printed'],
  ['location', 'Place'],
  ['reference', 'Shelfmark'],
  ['numeric', 'Lines'],
  ['url', 'Source'],
];

/**
 * The project's owner, logged in, with the title page imported and its line "Novelle" picked;
 * the project has the classes Title, Imprint and Date and allows the metadata above.
 */
export async function signInWithImportedLine(page: Page, options: { siteAdmin?: boolean } = {}) {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'folia-details-'));
  for (const ext of ['jpg', 'xml']) {
    fs.copyFileSync(
      path.join(SOURCE, `${PAGE_FILE}.${ext}`),
      path.join(folder, `${PAGE_FILE}.${ext}`),
    );
  }
  const email = uniqueEmail('annotator');
  createUser(email, PASSWORD, { admin: options.siteAdmin });
  const corpusId = importWithCli(folder, `Die Krieger ${email}`, email);
  await logIn(page, email);
  const api = new ServerApi(page);
  const pages = await api.get<Listed<{ id: string }>>(`/corpus/${corpusId}/elements/?type=page`);
  const listed = await api.get<Listed<ApiTranscription>>(
    `/element/${pages.results[0]!.id}/transcriptions/?recursive=true&page_size=100`,
  );
  const reading = listed.results.find((item) => item.text === 'Novelle')!;
  expect(reading.worker_run?.summary).toBe(IMPORT_RUN);
  // What the project admin sets up beside the screens: classes and the metadata allowed.
  const classes: Record<string, string> = {};
  for (const name of ['Title', 'Imprint', 'Date']) {
    classes[name] = (await api.post<{ id: string }>(`/corpus/${corpusId}/classes/`, { name })).id;
  }
  for (const [type, name] of ALLOWED_METADATA) {
    await api.post(`/corpus/${corpusId}/allowed-metadata/`, { type, name });
  }
  return { api, line: reading.element, reading, classes };
}

/**
 * What a classifier run left on the line, under the import's worker run: Title at 42 % and
 * Imprint at 91 %, for an annotator to validate or reject.
 */
export async function classifyAsWorker(
  api: ServerApi,
  line: { id: string },
  reading: ApiTranscription,
  classes: Record<string, string>,
): Promise<void> {
  for (const [name, confidence] of [
    ['Title', 0.42],
    ['Imprint', 0.91],
  ] as const) {
    await api.post('/classifications/', {
      element: line.id,
      ml_class: classes[name],
      worker_run_id: reading.worker_run!.id,
      confidence,
    });
  }
}

/**
 * The element details side panel as an annotator works it: its sections, the new transcription
 * form, the class selector and the metadata modal, found by role and visible text only.
 */
export class DetailsPanel {
  readonly panel: Locator;
  readonly transcriptions: Locator;
  readonly classifications: Locator;
  readonly metadata: Locator;
  readonly navbar: Locator;

  constructor(readonly page: Page) {
    this.panel = page.getByRole('complementary', { name: 'Element details' });
    this.transcriptions = this.panel.getByRole('region', { name: 'Transcriptions', exact: true });
    this.classifications = this.panel.getByRole('region', { name: 'Classifications' });
    this.metadata = this.panel.getByRole('region', { name: 'Metadata' });
    this.navbar = page.getByRole('navigation', { name: 'Main' });
  }

  async open(elementId: string, name: string): Promise<void> {
    await this.page.goto(`/element/${elementId}`);
    await expect(this.page.getByRole('heading', { name, exact: true })).toBeVisible();
    await expect(this.transcriptions).toBeVisible();
  }

  /** A transcription of the list, by its text. */
  transcription(text: string): Locator {
    return this.transcriptions.getByRole('listitem').filter({
      has: this.page.getByText(text, { exact: true }),
    });
  }

  notice(text: string): Locator {
    return this.page.getByText(text, { exact: true }).first();
  }

  /** Types a text in the new transcription form and sends it with Enter alone. */
  async addTranscription(text: string, notice: string): Promise<void> {
    const form = this.panel.getByRole('region', { name: 'New transcription' });
    await form.getByLabel('Text').fill(text);
    await form.getByLabel('Text').press('Enter');
    await expect(this.notice(notice)).toBeVisible();
    await expect(this.transcription(text)).toBeVisible();
    await expect(form.getByLabel('Text')).toHaveValue('');
  }

  async editTranscription(from: string, to: string, notice: string): Promise<void> {
    await this.transcription(from).getByRole('button', { name: 'Edit' }).click();
    const text = this.transcriptions.getByLabel('Text');
    await text.fill(to);
    await text.press('Enter');
    await expect(this.notice(notice)).toBeVisible();
    await expect(this.transcription(to)).toBeVisible();
  }

  /** Searches a class, picks it, and adds the manual classification. */
  async classify(search: string, name: string): Promise<void> {
    await this.classifications.getByLabel('Add a classification').fill(search);
    await this.classifications.getByRole('option', { name, exact: true }).click();
    await this.classifications.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(this.classification(name)).toBeVisible();
  }

  classification(name: string): Locator {
    return this.classifications.getByRole('listitem').filter({
      has: this.page.getByText(name, { exact: true }),
    });
  }

  /** Opens the add modal, picks an allowed name ("Lines (numeric)") and types the value. */
  async fillMetadata(allowed: string, value: string): Promise<Locator> {
    const add = this.metadata.getByRole('button', { name: 'Add', exact: true });
    await expect(add).toBeEnabled();
    await add.click();
    const dialog = this.page.getByRole('dialog', { name: 'Add metadata' });
    await expect(dialog.getByText('Add metadata', { exact: true })).toBeVisible();
    await dialog.getByLabel('Name').selectOption({ label: allowed });
    await dialog.getByLabel('Value').fill(value);
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    return dialog;
  }

  async addMetadata(allowed: string, value: string, notice: string): Promise<void> {
    const dialog = await this.fillMetadata(allowed, value);
    await expect(dialog).toHaveCount(0);
    await expect(this.notice(notice)).toBeVisible();
    await expect(this.metadata.getByText(value, { exact: true })).toBeVisible();
  }

  async synced(): Promise<void> {
    await expect(this.navbar.getByText(/\d+ pending/)).toBeHidden({ timeout: 30_000 });
  }

  async shot(name: string, path: string): Promise<void> {
    await this.panel.screenshot({ path: `${path}/${name}.png` });
  }
}
