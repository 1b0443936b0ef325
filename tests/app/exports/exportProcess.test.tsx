// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CorpusExport } from '@/api/exports';
import type { Corpus, Features } from '@/api/types';
import { ExportProcessModal } from '@/features/exports/ExportProcessModal';
import {
  FARM_ID,
  apiError,
  exportServer,
  featureVersion,
  isolateEachTest,
  json,
  makeCorpus,
  makeExport,
  makeUser,
  renderModal,
  uuid,
  type Handler,
} from './harness';

isolateEachTest();

const ALL_FORMATS: Partial<Features> = {
  pdf_export: true,
  pagexml_export: true,
  alto_export: true,
  docx_export: true,
  csv_export: true,
};

const PAGE = { id: '00000000-0000-4000-8e00-00000000a9e1', name: 'Folio 12r' };

function open(
  corpus: Corpus,
  exports: CorpusExport[] = [],
  options: {
    features?: Partial<Features>;
    overrides?: Record<string, Handler>;
    selection?: boolean;
  } = {},
) {
  const { features = ALL_FORMATS, overrides = {}, selection = false } = options;
  const server = exportServer(corpus, exports, overrides);
  renderModal(
    (close) => (
      <ExportProcessModal
        corpusId={corpus.id}
        corpusName={corpus.name}
        element={selection ? null : PAGE}
        selection={selection}
        onClose={close}
      />
    ),
    makeUser(),
    features,
  );
  return server;
}

async function dialog() {
  return screen.findByRole('dialog', { name: 'Export to a file' });
}

function options(label: string) {
  return within(screen.getByLabelText(label))
    .getAllByRole('option')
    .map((option) => ({
      text: option.textContent,
      disabled: (option as HTMLOptionElement).disabled,
    }));
}

/** Ready to send once the format's worker version is in. */
async function ready() {
  await dialog();
  await waitFor(() =>
    expect(screen.getByRole('button', { name: 'Export' }).hasAttribute('disabled')).toBe(false),
  );
}

describe('Export process modal', () => {
  it('offers only the formats whose feature flag the server sets', async () => {
    const corpus = makeCorpus();
    open(corpus, [], { features: { pdf_export: true, alto_export: true, csv_export: true } });
    await dialog();
    expect(options('Format').map((option) => option.text)).toEqual(['PDF', 'ALTO', 'CSV']);
  });

  it('lists every format when each is on', async () => {
    open(makeCorpus());
    await dialog();
    expect(options('Format').map((option) => option.text)).toEqual([
      'PDF',
      'PAGE XML',
      'ALTO',
      'DOCX',
      'CSV',
    ]);
  });

  it('offers a new export or a done one, newest first, and a failed one only to see', async () => {
    const corpus = makeCorpus();
    const older = makeExport(corpus, 'done', {
      user: { id: 'a', email: '', display_name: 'Ada Lovelace' },
    });
    const failed = makeExport(corpus, 'failed', {
      user: { id: 'b', email: '', display_name: 'Charles Babbage' },
    });
    const running = makeExport(corpus, 'running');
    const newer = makeExport(corpus, 'done', {
      user: { id: 'c', email: '', display_name: 'Mary Somerville' },
    });
    const server = open(corpus, [older, failed, running, newer]);
    await ready();
    await waitFor(() => expect(options('Project export')).toHaveLength(4));
    expect(options('Project export')).toEqual([
      { text: 'A new export', disabled: false },
      {
        text: `${newer.created.slice(0, 16).replace('T', ' ')} UTC, by Mary Somerville`,
        disabled: false,
      },
      {
        text: `${failed.created.slice(0, 16).replace('T', ' ')} UTC, by Charles Babbage (failed)`,
        disabled: true,
      },
      {
        text: `${older.created.slice(0, 16).replace('T', ' ')} UTC, by Ada Lovelace`,
        disabled: false,
      },
    ]);
    // The newest done one is chosen at first; a new export is one choice away.
    const choice = screen.getByLabelText('Project export') as HTMLSelectElement;
    expect(choice.value).toBe(newer.id);
    await userEvent.selectOptions(choice, '');
    expect(choice.value).toBe('');
    await userEvent.selectOptions(choice, older.id);
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() =>
      expect(server.callsTo('POST', `/process/export/${corpus.id}/`)).toHaveLength(1),
    );
    expect(server.callsTo('POST', `/process/export/${corpus.id}/`)[0]!.body).toMatchObject({
      export_id: older.id,
    });
  });

  it('creates the process for the element and opens its page', async () => {
    const corpus = makeCorpus();
    const processId = uuid();
    const server = open(corpus, [], {
      overrides: {
        [`POST /process/export/${corpus.id}/`]: () =>
          json(201, { id: processId, mode: 'export', state: 'pending' }),
      },
    });
    await ready();
    await userEvent.selectOptions(screen.getByLabelText('Format'), 'pagexml');
    await waitFor(() =>
      expect(server.callsTo('GET', '/workers/versions/feature/pagexml_export/')).toHaveLength(1),
    );
    await userEvent.selectOptions(screen.getByLabelText('Farm'), FARM_ID);
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    expect((await screen.findByTestId('elsewhere')).textContent).toBe(
      `Now at /process/${processId}`,
    );
    expect(server.callsTo('POST', `/process/export/${corpus.id}/`)[0]!.body).toEqual({
      format: 'pagexml',
      export_id: null,
      configuration: {},
      farm_id: FARM_ID,
      element_id: PAGE.id,
    });
  });

  it("exports the project's selection when asked to", async () => {
    const corpus = makeCorpus();
    const server = open(corpus, [], {
      selection: true,
      overrides: {
        [`POST /process/export/${corpus.id}/`]: () => json(201, { id: uuid() }),
      },
    });
    await ready();
    expect(screen.getByText(`The selected elements of ${corpus.name}`)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() =>
      expect(server.callsTo('POST', `/process/export/${corpus.id}/`)[0]?.body).toEqual({
        format: 'pdf',
        export_id: null,
        configuration: {},
        farm_id: null,
        selection: true,
      }),
    );
  });

  it('shows each field error under its field, and the others above the buttons', async () => {
    const corpus = makeCorpus();
    open(corpus, [], {
      overrides: {
        [`POST /process/export/${corpus.id}/`]: () =>
          apiError(400, [
            { attr: 'export_id', detail: 'This export failed.' },
            { attr: 'farm_id', detail: 'Farm not found.' },
            { attr: 'configuration', detail: 'Unrecognised field' },
            { attr: 'worker_run_id', detail: 'Worker run not found.' },
            { attr: 'element_id', detail: 'Element not in this project.' },
            { attr: 'selection', detail: 'The selection is empty.' },
            { attr: null, detail: 'Something else went wrong.' },
          ]),
      },
    });
    await ready();
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    await screen.findByText('This export failed.');
    const holder = (text: string) => screen.getByText(text).closest('div, section')!;
    expect(holder('This export failed.').contains(screen.getByLabelText('Project export'))).toBe(
      true,
    );
    expect(holder('Farm not found.').contains(screen.getByLabelText('Farm'))).toBe(true);
    const configuration = screen.getByRole('region', { name: 'Configuration' });
    expect(within(configuration).getByText('Unrecognised field')).toBeTruthy();
    expect(within(configuration).getByText('Worker run not found.')).toBeTruthy();
    const elements = screen.getByRole('region', { name: 'Elements' });
    expect(within(elements).getByText('Element not in this project.')).toBeTruthy();
    expect(within(elements).getByText('The selection is empty.')).toBeTruthy();
    expect(screen.getByText('Something else went wrong.')).toBeTruthy();
    // Nothing navigated away.
    expect(screen.queryByTestId('elsewhere')).toBeNull();
  });

  it.each([
    ['the server fails', () => apiError(500, [{ attr: null, detail: 'Boom' }])],
    ['no version provides the format', () => apiError(404, [{ attr: null, detail: 'Not found.' }])],
  ])('says the worker version could not be retrieved when %s', async (_, answer) => {
    const corpus = makeCorpus();
    const server = open(corpus, [], {
      overrides: { 'GET /workers/versions/feature/pdf_export/': answer },
    });
    await dialog();
    expect(
      await screen.findByText('The worker version for export could not be retrieved'),
    ).toBeTruthy();
    const submit = screen.getByRole('button', { name: 'Export' });
    expect(submit.hasAttribute('disabled')).toBe(true);
    expect(submit.getAttribute('title')).toBe(
      'The worker version for export could not be retrieved',
    );
    expect(server.callsTo('POST', `/process/export/${corpus.id}/`)).toHaveLength(0);
  });

  it("asks the format's settings and sends what is typed, checked first", async () => {
    const corpus = makeCorpus();
    const server = open(corpus, [], {
      features: { csv_export: true },
      overrides: {
        'GET /workers/versions/feature/csv_export/': () =>
          json(
            200,
            featureVersion('csv_export', {
              fields: {
                title: 'Fields',
                type: 'list',
                subtype: 'string',
                required: false,
                default: ['id', 'name'],
              },
              limit: { title: 'Row limit', type: 'int', required: false },
            }),
          ),
        [`POST /process/export/${corpus.id}/`]: () => json(201, { id: uuid() }),
      },
    });
    await ready();
    const fields = screen.getByLabelText('Fields') as HTMLTextAreaElement;
    expect(fields.value).toBe('id\nname');
    await userEvent.type(fields, '\ntext');
    await userEvent.type(screen.getByLabelText('Row limit'), '2.5');
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    expect(await screen.findByText('Value must be a valid integer.')).toBeTruthy();
    expect(server.callsTo('POST', `/process/export/${corpus.id}/`)).toHaveLength(0);

    await userEvent.clear(screen.getByLabelText('Row limit'));
    await userEvent.type(screen.getByLabelText('Row limit'), '100');
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() =>
      expect(server.callsTo('POST', `/process/export/${corpus.id}/`)[0]?.body).toMatchObject({
        format: 'csv',
        configuration: { fields: ['id', 'name', 'text'], limit: 100 },
      }),
    );
  });
});
