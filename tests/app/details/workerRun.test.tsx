// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import {
  FILE_IMPORT,
  classification,
  detailsApi,
  isolateDetailsTests,
  openDetails,
  transcription,
  uuid,
} from '../support/details';

isolateDetailsTests();

/** RetrieveWorkerRun's answer for the run that imported a file: no model, no configuration. */
function importRun() {
  return {
    id: FILE_IMPORT.id,
    summary: FILE_IMPORT.summary,
    worker_version: {
      id: uuid(),
      worker: {
        id: uuid(),
        name: 'File import',
        slug: 'file_import',
        type: 'import',
        repository_url: null,
      },
      revision: null,
      version: 1,
      created: '2024-05-02T09:30:00.000Z',
    },
    configuration: null,
    model_version: null,
    process: { id: uuid(), name: 'Import of page.xml', state: 'completed' },
  };
}

function recognizerRun() {
  return {
    id: uuid(),
    summary: 'Worker Recognizer @ 123412 with model HTR @ 5f3e2a',
    worker_version: {
      id: uuid(),
      worker: {
        id: uuid(),
        name: 'Recognizer',
        slug: 'recognizer',
        type: 'recognizer',
        repository_url: 'https://gitlab.example.org/workers/recognizer',
      },
      revision: { hash: '123412deadbeef' },
      version: null,
      created: '2024-05-02T09:30:00.000Z',
    },
    configuration: { id: uuid(), name: 'Batch of 8', configuration: { batch: 8 }, archived: false },
    model_version: {
      id: '5f3e2a00-0000-4000-8000-000000000001',
      model: { id: uuid(), name: 'HTR' },
      tag: 'v1',
      state: 'available',
      size: 1024,
      configuration: { beam: 4 },
    },
    process: { id: uuid(), name: 'Recognition', state: 'completed' },
  };
}

/** The value beside a label in one section of the modal. */
function row(section: HTMLElement, label: string): string {
  const term = within(section).getByText(label, { selector: 'dt' });
  return term.nextElementSibling!.textContent!;
}

const sectionOf = (dialog: HTMLElement, title: string) =>
  within(dialog).getByRole('heading', { name: title }).closest('section') as HTMLElement;

describe('The worker run details modal', () => {
  it('shows the run that imported a transcription, without model or configuration', async () => {
    const run = importRun();
    const { element } = detailsApi({
      transcriptions: [transcription({ text: 'Imported line', worker_run: FILE_IMPORT })],
      workerRuns: { [run.id]: run },
    });
    const { panel, user } = await openDetails(element.id);
    await user.click(await within(panel).findByRole('button', { name: 'Worker File import @ 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Worker run details' });
    await within(dialog).findByRole('heading', { name: 'Worker' });
    expect(row(dialog, 'Worker run ID')).toBe(run.id);
    const worker = sectionOf(dialog, 'Worker');
    expect(row(worker, 'Name')).toBe('File import');
    expect(row(worker, 'Revision')).toBe('Version 1');
    expect(row(worker, 'Version ID')).toBe(run.worker_version.id);
    expect(row(worker, 'Worker ID')).toBe(run.worker_version.worker.id);
    expect(row(worker, 'Version created')).toBe(
      new Date('2024-05-02T09:30:00.000Z').toLocaleString(),
    );
    expect(within(sectionOf(dialog, 'Model')).getByText('No model.')).toBeTruthy();
    expect(
      within(sectionOf(dialog, 'Run configuration')).getByText('No configuration.'),
    ).toBeTruthy();
    const process = sectionOf(dialog, 'Process');
    expect(row(process, 'Name')).toBe('Import of page.xml');
    expect(row(process, 'State')).toBe('completed');
    expect(row(process, 'ID')).toBe(run.process.id);
    // The footer links to what there is, and closes.
    expect(within(dialog).queryByRole('link', { name: 'Model version' })).toBeNull();
    expect(within(dialog).getByRole('link', { name: 'Worker version' }).getAttribute('href')).toBe(
      `/process/worker-version/${run.worker_version.id}`,
    );
    expect(within(dialog).getByRole('link', { name: 'Process' }).getAttribute('href')).toBe(
      `/process/${run.process.id}`,
    );
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it("shows a classification's run with its model and configuration", async () => {
    const run = recognizerRun();
    const { element } = detailsApi({
      element: {
        classifications: [
          classification(
            { id: uuid(), name: 'Charter' },
            { worker_run: { id: run.id, summary: run.summary } },
          ),
        ],
      },
      workerRuns: { [run.id]: run },
    });
    const { panel, user } = await openDetails(element.id);
    const classifications = await within(panel).findByRole('region', { name: 'Classifications' });
    await user.click(within(classifications).getByRole('button', { name: 'worker' }));
    const dialog = await screen.findByRole('dialog', { name: 'Worker run details' });
    await within(dialog).findByRole('heading', { name: 'Model' });
    const revision = within(sectionOf(dialog, 'Worker')).getByRole('link', {
      name: '123412deadbeef',
    });
    expect(revision.getAttribute('href')).toBe(
      'https://gitlab.example.org/workers/recognizer/commit/123412deadbeef',
    );
    const model = sectionOf(dialog, 'Model');
    expect(row(model, 'Name')).toBe('HTR');
    expect(row(model, 'State')).toBe('available');
    expect(row(model, 'Size')).toBe('1 KB');
    expect(row(model, 'Version ID')).toBe(run.model_version.id);
    expect(row(model, 'Tag')).toBe('v1');
    expect(row(model, 'Model ID')).toBe(run.model_version.model.id);
    expect(within(model).getByText('Configuration', { selector: 'summary' })).toBeTruthy();
    expect(model.querySelector('pre')!.textContent).toBe(JSON.stringify({ beam: 4 }, null, 2));
    const configuration = sectionOf(dialog, 'Run configuration');
    expect(row(configuration, 'Name')).toBe('Batch of 8');
    expect(row(configuration, 'ID')).toBe(run.configuration.id);
    expect(row(configuration, 'Archived')).toBe('No');
    expect(configuration.querySelector('pre')!.textContent).toBe(
      JSON.stringify({ batch: 8 }, null, 2),
    );
    expect(within(dialog).getByRole('link', { name: 'Model version' }).getAttribute('href')).toBe(
      `/model-version/${run.model_version.id}`,
    );
  });

  it('shows a spinner while loading, then says when the run cannot be loaded', async () => {
    const missing = { id: uuid(), summary: 'Worker Gone @ 000000' };
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const { element } = detailsApi({
      transcriptions: [transcription({ text: 'Orphan line', worker_run: missing })],
      overrides: {
        // Held until the test has seen the spinner; then the stand-in's 404.
        [`GET /process/workers/${missing.id}/`]: () => answered.then(() => null),
      },
    });
    const { panel, user } = await openDetails(element.id);
    await user.click(await within(panel).findByRole('button', { name: missing.summary }));
    const dialog = await screen.findByRole('dialog', { name: 'Worker run details' });
    expect(within(dialog).getByRole('status').textContent).toContain('Loading…');
    answer();
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      `Failed to load worker run ${missing.id}: Not found.`,
    );
  });
});
