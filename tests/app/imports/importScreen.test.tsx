// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ImportFilesPage } from '@/features/imports/ImportFilesPage';
import type { Corpus, Element } from '@/api/types';
import { connectivity } from '@/offline/runtime';
import {
  FakeXhr,
  apiError,
  fileOf,
  importServer,
  isolateEachTest,
  makeCorpus,
  makeDataFile,
  makeFolder,
  makeReport,
  makeUser,
  renderPage,
  uuid,
} from './harness';

const me = makeUser();

function renderImport(corpus: Corpus, folder: Element | null = null) {
  const url = folder ? `/process/files/${corpus.id}/${folder.id}` : `/process/files/${corpus.id}`;
  return renderPage({
    path: '/process/files/$corpusId/{-$folderId}',
    url,
    page: () => <ImportFilesPage corpusId={corpus.id} folderId={folder?.id ?? null} pollMs={20} />,
    user: me,
  });
}

function progressOf(name: string): number | null {
  const value = screen.getByRole('progressbar', { name }).getAttribute('aria-valuenow');
  return value === null ? null : Number(value);
}

isolateEachTest();
beforeEach(() => {
  document.cookie = 'arkindex.csrf=csrf-secret';
});

describe('Import files screen', () => {
  it("shows the project, the target folder and the project's uploaded files", async () => {
    const corpus = makeCorpus({ name: 'Letters', role: 'contributor' });
    const folder = makeFolder(corpus, 'Box 1');
    importServer({
      corpus,
      folder,
      files: [
        makeDataFile(corpus.id, { name: 'folio-1.jpg', size: 2_400_000 }),
        makeDataFile(corpus.id, {
          name: 'folio-1.xml',
          size: 512,
          status: 'unchecked',
          s3_put_url: 'http://localhost/x',
        }),
      ],
    });
    renderImport(corpus, folder);

    expect(
      (await screen.findByRole('heading', { level: 1, name: 'Import files into Box 1' }))
        .textContent,
    ).toBe('Import files into Box 1');
    expect(screen.getByRole('link', { name: 'Letters' }).getAttribute('href')).toBe(
      `/browse/${corpus.id}`,
    );
    expect(screen.getByRole('link', { name: 'Box 1' }).getAttribute('href')).toBe(
      `/element/${folder.id}`,
    );
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .slice(1, 4)
          .map((c) => c.textContent),
      ),
    ).toEqual([
      ['folio-1.xml', '512 bytes', 'Not uploaded'],
      ['folio-1.jpg', '2.4 MB', 'Ready'],
    ]);
    // A file whose content is not there cannot be imported.
    expect(screen.getByRole('checkbox', { name: 'Select folio-1.xml' })).toHaveProperty(
      'disabled',
      true,
    );
    expect(screen.getByText(/The selected files are imported into the folder/).textContent).toBe(
      'The selected files are imported into the folder Box 1.',
    );
    expect(screen.queryByRole('textbox', { name: 'Folder name' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Import' })).toHaveProperty('disabled', true);
  });

  it('tells a guest that a contributor access is needed, and disables everything', async () => {
    const corpus = makeCorpus({ name: 'Letters', role: 'guest' });
    const server = importServer({ corpus, files: [makeDataFile(corpus.id, { name: 'a.jpg' })] });
    renderImport(corpus);

    expect((await screen.findByRole('alert')).textContent).toBe(
      'You must have a contributor access to this project.',
    );
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Import files into Letters');
    expect(screen.getByRole('button', { name: 'Choose files' })).toHaveProperty('disabled', true);
    expect(await screen.findByRole('checkbox', { name: 'Select a.jpg' })).toHaveProperty(
      'disabled',
      true,
    );
    expect(screen.getByRole('button', { name: 'Delete a.jpg' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('textbox', { name: 'Folder name' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Import' })).toHaveProperty('disabled', true);
    fireEvent.drop(screen.getByRole('group', { name: 'Drop zone' }), {
      dataTransfer: { files: [fileOf('b.jpg', 10)] },
    });
    expect(server.callsTo('POST', '/process/files/create/')).toEqual([]);
  });

  it('uploads chosen files with a progress bar each and one overall, then selects them', async () => {
    const corpus = makeCorpus({ role: 'contributor' });
    const server = importServer({ corpus });
    renderImport(corpus);
    const user = userEvent.setup({ applyAccept: false });
    await screen.findByRole('button', { name: 'Choose files' });

    await user.upload(screen.getByLabelText('Files to upload'), [
      fileOf('scan 1.tif', 1000),
      fileOf('scan 1.xml', 2000, 'text/xml'),
    ]);

    await waitFor(() => expect(FakeXhr.sent).toHaveLength(2));
    expect(server.callsTo('POST', '/process/files/create/').map((call) => call.body)).toEqual([
      { corpus: corpus.id, name: 'scan 1.tif', size: 1000, content_type: 'image/tiff' },
      { corpus: corpus.id, name: 'scan 1.xml', size: 2000, content_type: 'text/xml' },
    ]);
    const [tif, xml] = FakeXhr.sent as [FakeXhr, FakeXhr];
    const [tifFile, xmlFile] = server.files;
    expect(tif).toMatchObject({
      method: 'PUT',
      // The server's absolute URL, called as a path on the page's own host.
      url: new URL(tifFile!.s3_put_url!).pathname,
      withCredentials: true,
      headers: { 'content-type': 'image/tiff', 'x-csrftoken': 'csrf-secret' },
    });
    expect((tif.body as File).name).toBe('scan 1.tif');
    expect(xml.headers['content-type']).toBe('text/xml');

    tif.progress(500, 1000);
    expect(progressOf('Upload of scan 1.tif')).toBe(50);
    expect(progressOf('Upload of scan 1.xml')).toBe(0);
    expect(progressOf('Overall upload progress')).toBe(17);
    expect(screen.getByText('Uploading… 50%')).toBeTruthy();
    expect(screen.getByText(/Uploading: 0 of 2 files uploaded/)).toBeTruthy();

    await server.acceptUpload(tif);
    xml.progress(2000, 2000);
    await server.acceptUpload(xml);
    expect(progressOf('Overall upload progress')).toBe(100);
    const uploads = screen.getByRole('list', { name: 'Files being uploaded' });
    expect(within(uploads).getAllByText('Uploaded')).toHaveLength(2);
    expect(screen.getByText('2 of 2 files uploaded')).toBeTruthy();

    // The uploaded files appear in the project's list, ready and selected for the import.
    const checkbox = await screen.findByRole('checkbox', { name: 'Select scan 1.xml' });
    await waitFor(() => expect(checkbox).toHaveProperty('checked', true));
    expect(screen.getByRole('checkbox', { name: 'Select scan 1.tif' })).toHaveProperty(
      'checked',
      true,
    );
    expect(screen.getByRole('button', { name: 'Import 2 files' })).toHaveProperty(
      'disabled',
      false,
    );
    expect(xmlFile!.status).toBe('checked');
  });

  it("refuses what cannot be imported and shows the server's message for each failed file", async () => {
    const corpus = makeCorpus({ role: 'contributor' });
    const server = importServer({
      corpus,
      onCreate: (body) =>
        body.name === 'map.tif'
          ? apiError(400, [
              {
                attr: 'size',
                detail: 'Ensure this value is less than or equal to 2147483648.',
                code: 'max_value',
              },
            ])
          : undefined,
    });
    renderImport(corpus);
    const zone = await screen.findByRole('group', { name: 'Drop zone' });

    fireEvent.drop(zone, {
      dataTransfer: {
        files: [
          fileOf('notes.txt', 10),
          fileOf('empty.jpg', 0),
          fileOf('map.tif', 30),
          fileOf('page.png', 40, 'image/png'),
        ],
      },
    });

    const row = (name: string) => screen.getByRole('listitem', { name });
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    expect(within(row('notes.txt')).getByText(/This type of file cannot be imported/)).toBeTruthy();
    expect(within(row('empty.jpg')).getByText('This file is empty.')).toBeTruthy();
    await waitFor(() =>
      expect(
        within(row('map.tif')).getByText('Ensure this value is less than or equal to 2147483648.'),
      ).toBeTruthy(),
    );
    expect(server.callsTo('POST', '/process/files/create/').map((call) => call.body)).toEqual([
      expect.objectContaining({ name: 'map.tif' }),
      expect.objectContaining({ name: 'page.png', content_type: 'image/png' }),
    ]);
    expect(within(row('notes.txt')).queryByRole('button', { name: /Retry/ })).toBeNull();

    // The content is refused: the server's words show, and the file can be sent again.
    await FakeXhr.sent[0]!.respond(400, {
      type: 'client_error',
      errors: [
        {
          code: 'size_mismatch',
          detail: 'The uploaded content is 39 bytes long, but the file was declared with 40 bytes.',
          attr: null,
        },
      ],
    });
    expect(
      within(row('page.png')).getByText(
        'The uploaded content is 39 bytes long, but the file was declared with 40 bytes.',
      ),
    ).toBeTruthy();
    expect(screen.getByText(/0 of 2 files uploaded, 2 failed/)).toBeTruthy();

    await userEvent.click(within(row('page.png')).getByRole('button', { name: 'Retry page.png' }));
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(2));
    // The declared file is reused: no second creation.
    expect(server.callsTo('POST', '/process/files/create/')).toHaveLength(2);
    expect(FakeXhr.sent[1]!.url).toBe(FakeXhr.sent[0]!.url);
    await server.acceptUpload(FakeXhr.sent[1]!);
    expect(within(row('page.png')).getByText('Uploaded')).toBeTruthy();

    FakeXhr.sent.length = 0;
    await userEvent.click(within(row('map.tif')).getByRole('button', { name: 'Retry map.tif' }));
    await waitFor(() => expect(server.callsTo('POST', '/process/files/create/')).toHaveLength(3));
  });

  it('cancels an upload and deletes its declared file', async () => {
    const corpus = makeCorpus({ role: 'contributor' });
    const server = importServer({ corpus });
    renderImport(corpus);
    const zone = await screen.findByRole('group', { name: 'Drop zone' });
    fireEvent.drop(zone, { dataTransfer: { files: [fileOf('big.tif', 5000)] } });
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    const id = server.files[0]!.id;

    await userEvent.click(screen.getByRole('button', { name: 'Cancel big.tif' }));
    expect(FakeXhr.sent[0]!.aborted).toBe(true);
    await waitFor(() => expect(server.callsTo('DELETE', `/process/file/${id}/`)).toHaveLength(1));
    expect(screen.queryByRole('listitem', { name: 'big.tif' })).toBeNull();
  });

  it('deletes an uploaded file after confirmation', async () => {
    const corpus = makeCorpus({ role: 'contributor' });
    const file = makeDataFile(corpus.id, { name: 'old.jpg' });
    const server = importServer({ corpus, files: [file] });
    renderImport(corpus);

    await userEvent.click(await screen.findByRole('button', { name: 'Delete old.jpg' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete file' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));

    await waitFor(() =>
      expect(server.callsTo('DELETE', `/process/file/${file.id}/`)).toHaveLength(1),
    );
    expect((await screen.findByRole('status')).textContent).toContain(
      'The file "old.jpg" has been deleted.',
    );
    expect(await screen.findByText('No file has been uploaded to this project yet.')).toBeTruthy();
  });

  it('imports the chosen files into a new folder, follows the job and shows the report', async () => {
    const corpus = makeCorpus({ name: 'Letters', role: 'contributor' });
    const files = [
      makeDataFile(corpus.id, { name: 'a.jpg' }),
      makeDataFile(corpus.id, { name: 'b.jpg' }),
      makeDataFile(corpus.id, { name: 'c.xml' }),
    ];
    const folderId = uuid();
    const server = importServer({
      corpus,
      files,
      jobStates: [
        { status: 'started', progress: 0.5, started_at: new Date().toISOString() },
        {
          status: 'processed',
          progress: 1,
          ended_at: new Date().toISOString(),
          result: makeReport({
            folder_id: folderId,
            element_id: folderId,
            folders: 1,
            pages: 2,
            regions: 5,
            lines: 31,
            transcriptions: 30,
            images: 2,
            types_created: ['text_line'],
            problems: [{ file: 'c.xml', reason: 'No image named c.* next to this PAGE XML file' }],
          }),
        },
      ],
    });
    renderImport(corpus);

    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select a.jpg' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select c.xml' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Folder name' }), ' Register 3 ');
    await userEvent.click(screen.getByRole('button', { name: 'Import 2 files' }));

    await waitFor(() => expect(server.callsTo('POST', '/process/fromfiles/')).toHaveLength(1));
    expect(server.callsTo('POST', '/process/fromfiles/')[0]!.body).toEqual({
      files: [files[0]!.id, files[2]!.id],
      folder_name: 'Register 3',
    });
    expect(await screen.findByRole('heading', { name: 'Importing…' })).toBeTruthy();

    expect(
      await screen.findByRole('heading', { name: 'Import finished with problems' }),
    ).toBeTruthy();
    const counts = screen.getAllByRole('definition').map((dd) => dd.textContent);
    expect(counts).toEqual(['1', '2', '5', '31', '30', '2']);
    expect(screen.getAllByRole('term').map((dt) => dt.textContent)).toEqual([
      'Folder',
      'Pages',
      'Regions',
      'Lines',
      'Transcriptions',
      'Images',
    ]);
    expect(screen.getByText('Element types added to the project: text_line')).toBeTruthy();
    const problems = screen.getByRole('table', { name: 'Problems' });
    expect(
      within(problems)
        .getAllByRole('row')
        .slice(1)
        .map((row) =>
          within(row)
            .getAllByRole('cell')
            .map((cell) => cell.textContent),
        ),
    ).toEqual([['c.xml', 'No image named c.* next to this PAGE XML file']]);
    expect(
      screen.getByRole('link', { name: 'Open the imported folder' }).getAttribute('href'),
    ).toBe(`/element/${folderId}`);
    expect(server.jobPolls).toBeGreaterThanOrEqual(2);
    const polls = server.jobPolls;
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Polling ends with the job.
    expect(server.jobPolls).toBe(polls);

    expect(screen.getByText('Import of 2 files')).toBeTruthy();

    // The uploads only take room now: they may be deleted from here.
    await userEvent.click(screen.getByRole('button', { name: 'Delete the 2 uploaded files' }));
    await waitFor(() =>
      expect(
        server.calls.filter((call) => call.method === 'DELETE').map((call) => call.path),
      ).toEqual([`/process/file/${files[0]!.id}/`, `/process/file/${files[2]!.id}/`]),
    );
    expect((await screen.findByRole('status')).textContent).toContain(
      'The 2 uploaded files have been deleted.',
    );
    expect(screen.queryByRole('button', { name: /uploaded files/ })).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Import more files' }));
    expect(await screen.findByRole('button', { name: 'Choose files' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Import' })).toHaveProperty('disabled', true);
    await screen.findByRole('checkbox', { name: 'Select b.jpg' });
    expect(screen.queryByRole('checkbox', { name: 'Select a.jpg' })).toBeNull();
  });

  it('imports into the folder of the address, and shows the progress while the job runs', async () => {
    const corpus = makeCorpus({ role: 'contributor' });
    const folder = makeFolder(corpus, 'Box 7');
    const file = makeDataFile(corpus.id, { name: 'a.jpg' });
    const server = importServer({
      corpus,
      folder,
      files: [file],
      jobStates: [{ status: 'started', progress: 0.25 }],
    });
    renderImport(corpus, folder);

    await userEvent.click(
      await screen.findByRole('checkbox', { name: 'Select all the files of this page' }),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Import 1 file' }));

    await waitFor(() => expect(server.callsTo('POST', '/process/fromfiles/')).toHaveLength(1));
    expect(server.callsTo('POST', '/process/fromfiles/')[0]!.body).toEqual({
      files: [file.id],
      folder_id: folder.id,
    });
    await waitFor(() => expect(progressOf('Import progress')).toBe(25));
    expect(screen.getByText('25% done')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Stop the import' }));
    await waitFor(() =>
      expect(
        server.calls.filter((call) => call.method === 'DELETE').map((call) => call.path),
      ).toEqual([expect.stringMatching(/^\/jobs\/[^/]+\/$/)]),
    );
  });

  it('shows how a failed import ended, with a way back to the project', async () => {
    const corpus = makeCorpus({ role: 'contributor' });
    const file = makeDataFile(corpus.id, { name: 'a.jpg' });
    importServer({
      corpus,
      files: [file],
      jobStates: [{ status: 'error', error: 'No space left on the server.', result: null }],
    });
    renderImport(corpus);

    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select a.jpg' }));
    await userEvent.click(screen.getByRole('button', { name: 'Import 1 file' }));

    expect(await screen.findByRole('heading', { name: 'The import failed' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('No space left on the server.');
    expect(screen.getByRole('link', { name: 'Browse the project' }).getAttribute('href')).toBe(
      `/browse/${corpus.id}`,
    );
  });

  it("shows the server's refusal of an import", async () => {
    const corpus = makeCorpus({ role: 'contributor' });
    const file = makeDataFile(corpus.id, { name: 'a.jpg' });
    importServer({
      corpus,
      files: [file],
      onImport: () =>
        apiError(400, [
          {
            attr: 'files',
            detail: 'The content of the file "a.jpg" is missing: upload it again.',
            code: 'not_uploaded',
          },
        ]),
    });
    renderImport(corpus);

    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select a.jpg' }));
    await userEvent.click(screen.getByRole('button', { name: 'Import 1 file' }));

    // Said in a notification, and beside the button until the next try.
    expect((await screen.findByRole('alert')).textContent).toContain(
      'The content of the file "a.jpg" is missing: upload it again.',
    );
    const form = screen.getByRole('region', { name: 'Import' });
    expect(
      within(form).getByText('The content of the file "a.jpg" is missing: upload it again.'),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Import 1 file' })).toBeTruthy();
  });
});

describe('Import files screen offline', () => {
  it('says before trying that uploads and imports need the network, and sends nothing', async () => {
    const corpus = makeCorpus({ name: 'Letters' });
    const server = importServer({ corpus, files: [makeDataFile(corpus.id, { name: 'a.jpg' })] });
    renderImport(corpus);
    await screen.findByRole('checkbox', { name: 'Select a.jpg' }, { timeout: 5000 });
    act(() => connectivity.store.set({ online: false, checkedAt: Date.now() }));

    expect(
      screen.getByText('You are offline. Connect to the network to upload and import files.'),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Choose files' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('checkbox', { name: 'Select a.jpg' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Delete a.jpg' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Import' })).toHaveProperty('disabled', true);
    fireEvent.drop(screen.getByRole('group', { name: 'Drop zone' }), {
      dataTransfer: { files: [fileOf('b.jpg', 10)] },
    });
    expect(server.calls.filter((call) => call.method !== 'GET')).toEqual([]);
  });
});
