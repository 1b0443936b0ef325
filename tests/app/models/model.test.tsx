// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import '../shell/domStubs';
import { describe, expect, it, vi } from 'vitest';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  fakeModelsServer,
  isolateEachTest,
  makeModel,
  makeVersion,
  makeWorker,
  me,
  renderModels,
  uuid,
} from './harness';
import { MODEL_WRITE_REQUIRED } from '@/features/models/modelText';
import { CONFIGURATION_NOT_AN_OBJECT } from '@/features/models/ModelVersionEditor';
import { FakeXhr } from '../imports/harness';

// The real module registers a service worker through a Vite virtual module.
vi.mock('@/app/serviceWorker', async () => {
  const { createStore } = await import('@/lib/store');
  return {
    updateAvailable: createStore(false),
    applyUpdate: vi.fn(),
    registerServiceWorker: () => {},
  };
});

// The first page of a run waits for the route modules to load, slow on a busy machine.
configure({ asyncUtilTimeout: 10_000 });

isolateEachTest();

describe('the model page', () => {
  it('lets a contributor rename the model, with the name rules, and save it trimmed', async () => {
    const model = makeModel({ name: 'Lines', description: 'Old', role: 'contributor' });
    const server = fakeModelsServer({ models: [model] });
    renderModels(`/model/${model.id}`);
    await screen.findByRole('heading', { name: 'Lines', level: 1 });
    expect(screen.queryByText(MODEL_WRITE_REQUIRED)).toBeNull();
    const details = within(screen.getByRole('region', { name: 'Details' }));
    const update = details.getByRole('button', { name: 'Update' }) as HTMLButtonElement;
    const name = details.getByRole('textbox', { name: /Name/ });

    await userEvent.clear(name);
    await userEvent.type(name, '  ');
    expect(update.disabled).toBe(true);
    await userEvent.type(name, 'Text lines ');
    expect(update.disabled).toBe(false);
    // A contributor has no archive button: archiving needs the model's admin right.
    expect(details.queryByRole('button', { name: 'Archive' })).toBeNull();
    expect(details.queryByRole('button', { name: 'Make public' })).toBeNull();
    await userEvent.click(update);

    expect(await screen.findByText('Model "Text lines" has been updated.')).toBeTruthy();
    expect(server.callsTo('PATCH', `/model/${model.id}/`)[0]!.body).toEqual({
      name: 'Text lines',
      description: 'Old',
    });
    await screen.findByRole('heading', { name: 'Text lines', level: 1 });
  });

  it('lets an admin archive the model and make it public', async () => {
    const model = makeModel({ name: 'Lines' });
    const server = fakeModelsServer({ models: [model] });
    renderModels(`/model/${model.id}`);
    await userEvent.click(await screen.findByRole('button', { name: 'Archive' }));
    expect(await screen.findByText('Model "Lines" has been archived.')).toBeTruthy();
    expect(server.callsTo('PATCH', `/model/${model.id}/`)[0]!.body).toEqual({ archived: true });
    expect(await screen.findByRole('button', { name: 'Unarchive' })).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Make public' }));
    expect(await screen.findByText('Model "Lines" is now public.')).toBeTruthy();
    expect(server.callsTo('PATCH', `/model/${model.id}/`)[1]!.body).toEqual({ public: true });
    expect(await screen.findByRole('button', { name: 'Make private' })).toBeTruthy();
  });

  it('lists the versions with state, tag, size and date, each leading to its page', async () => {
    const model = makeModel({ name: 'Lines' });
    const tagged = makeVersion(model, { tag: 'v2', size: 1_500_000, state: 'available' });
    const pending = makeVersion(model, { tag: null, size: null, state: 'created' });
    fakeModelsServer({ models: [model], versions: [tagged, pending] });
    const { router } = renderModels(`/model/${model.id}`);
    const table = within(await screen.findByRole('table', { name: 'Versions' }));
    const [first, second] = table
      .getAllByRole('row')
      .slice(1)
      .map((row) => within(row));
    expect(first!.getAllByRole('cell').map((cell) => cell.textContent)).toEqual([
      tagged.id.slice(0, 8),
      'available',
      'v2',
      '1.5 MB',
      new Date(tagged.created).toLocaleString(),
    ]);
    expect(second!.getByText('created')).toBeTruthy();
    expect(second!.getAllByText('—')).toHaveLength(2);

    await userEvent.click(table.getByRole('link', { name: 'Version v2' }));
    await screen.findByRole('heading', { name: 'Model version v2', level: 1 });
    expect(router.state.location.pathname).toBe(`/model-version/${tagged.id}`);
  });

  it('shows no members to a contributor', async () => {
    const model = makeModel({ name: 'Lines', role: 'contributor' });
    const server = fakeModelsServer({ models: [model] });
    renderModels(`/model/${model.id}`);
    await screen.findByRole('region', { name: 'Compatible workers' });
    expect(screen.queryByRole('region', { name: 'Members' })).toBeNull();
    expect(server.calls.some((call) => call.path.endsWith('/memberships/'))).toBe(false);
  });

  it('uploads a new version: created first, then its archive sent to its upload address', async () => {
    FakeXhr.sent = [];
    FakeXhr.onSend = null;
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const model = makeModel({ name: 'Lines', role: 'contributor' });
    const server = fakeModelsServer({ models: [model] });
    renderModels(`/model/${model.id}`);
    await screen.findByText('This model has no versions yet.');
    await userEvent.click(screen.getByRole('button', { name: 'New version' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'New version' }));
    const upload = dialog.getByRole('button', { name: 'Upload' }) as HTMLButtonElement;
    expect(upload.disabled).toBe(true);
    await userEvent.type(dialog.getByRole('textbox', { name: 'Tag' }), ' v2 ');
    const archive = new File([new Uint8Array(2_500)], 'model.tar.zst');
    await userEvent.upload(dialog.getByLabelText('Archive'), archive);
    expect(dialog.getByText('2.5 KB')).toBeTruthy();
    await userEvent.click(upload);

    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    const created = server.versions[0]!;
    expect(server.callsTo('POST', `/model/${model.id}/versions/`)[0]!.body).toEqual({ tag: 'v2' });
    const xhr = FakeXhr.sent[0]!;
    expect(xhr.method).toBe('PUT');
    expect(xhr.url).toBe(created.s3_put_url);
    expect(xhr.body).toBe(archive);
    xhr.progress(1_000, 2_500);
    expect(
      dialog.getByRole('progressbar', { name: 'Upload progress' }).getAttribute('aria-valuenow'),
    ).toBe('40');
    Object.assign(created, { state: 'available', size: 2_500, s3_put_url: null });
    await xhr.respond(200, created);

    expect(await screen.findByText('Version v2 is available.')).toBeTruthy();
    const table = within(await screen.findByRole('table', { name: 'Versions' }));
    expect(table.getByText('v2')).toBeTruthy();
    expect(table.getByText('2.5 KB')).toBeTruthy();
  });

  it('shows a failed upload in the dialog, and the version in error in the list', async () => {
    FakeXhr.sent = [];
    FakeXhr.onSend = null;
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const model = makeModel({ name: 'Lines', role: 'contributor' });
    const server = fakeModelsServer({ models: [model] });
    renderModels(`/model/${model.id}`);
    await userEvent.click(await screen.findByRole('button', { name: 'New version' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'New version' }));
    await userEvent.upload(dialog.getByLabelText('Archive'), new File(['abc'], 'model.tar'));
    await userEvent.click(dialog.getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    server.versions[0]!.state = 'error';
    await FakeXhr.sent[0]!.respond(400, {
      type: 'validation_error',
      errors: [{ code: 'invalid', detail: 'The upload was cut off.', attr: null }],
    });
    expect(await dialog.findByText('The upload was cut off.')).toBeTruthy();
    const table = within(await screen.findByRole('table', { name: 'Versions' }));
    expect(await table.findByText('error')).toBeTruthy();
  });

  it('adds a compatible worker picked from the workers and removes it', async () => {
    const model = makeModel({ name: 'Lines', role: 'contributor' });
    const kraken = makeWorker('Kraken');
    const tesseract = makeWorker('Tesseract');
    const server = fakeModelsServer({
      models: [model],
      workers: [kraken, tesseract],
      compatible: { [model.id]: [kraken.id] },
    });
    renderModels(`/model/${model.id}`);
    const section = within(await screen.findByRole('region', { name: 'Compatible workers' }));
    const list = within(await section.findByRole('list', { name: 'Compatible workers' }));
    expect(list.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Kraken kraken · recognizerRemove',
    ]);
    const picker = section.getByRole('combobox', { name: 'Worker to add' });
    // A worker already linked is not offered again.
    await waitFor(() =>
      expect(
        within(picker)
          .getAllByRole('option')
          .map((option) => option.textContent),
      ).toEqual(['Choose a worker', 'Tesseract (tesseract)']),
    );
    await userEvent.selectOptions(picker, 'Tesseract (tesseract)');
    await userEvent.click(section.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(list.getAllByRole('listitem')).toHaveLength(2));
    expect(
      server.callsTo('POST', `/model/${model.id}/compatible-worker/${tesseract.id}/`),
    ).toHaveLength(1);

    await userEvent.click(section.getByRole('button', { name: 'Remove Kraken' }));
    await waitFor(() =>
      expect(list.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
        'Tesseract tesseract · recognizerRemove',
      ]),
    );
    expect(server.compatible[model.id]).toEqual([tesseract.id]);
  });

  it('lets an admin add and remove members, and hides the members from contributors', async () => {
    const model = makeModel({ name: 'Lines' });
    const grace = { id: uuid(), email: 'grace@example.org', display_name: 'Grace Hopper' };
    const server = fakeModelsServer({
      models: [model],
      members: {
        [model.id]: [
          {
            id: uuid(),
            level: 100,
            created: '2024-05-01T10:00:00Z',
            user: { id: me.id, email: me.email, display_name: me.display_name },
          },
        ],
      },
      accounts: [grace],
    });
    renderModels(`/model/${model.id}`);
    const section = within(await screen.findByRole('region', { name: 'Members' }));
    const table = within(await section.findByRole('table', { name: 'Members of Lines' }));
    await table.findByText('Ada Lovelace');

    const form = within(section.getByRole('form', { name: 'Add a member' }));
    await userEvent.type(
      form.getByRole('textbox', { name: 'E-mail address' }),
      'nobody@example.org',
    );
    await userEvent.click(form.getByRole('button', { name: 'Add member' }));
    expect(await form.findByText('No user with this email address exists.')).toBeTruthy();

    await userEvent.clear(form.getByRole('textbox', { name: 'E-mail address' }));
    await userEvent.type(
      form.getByRole('textbox', { name: 'E-mail address' }),
      'grace@example.org',
    );
    await userEvent.selectOptions(form.getByRole('combobox', { name: 'Role' }), 'Contributor');
    await userEvent.click(form.getByRole('button', { name: 'Add member' }));
    const row = within((await table.findByText('Grace Hopper')).closest('tr')!);
    expect(row.getByText('Contributor')).toBeTruthy();
    expect(server.callsTo('POST', '/memberships/').at(-1)!.body).toEqual({
      model_id: model.id,
      user_email: 'grace@example.org',
      level: 50,
    });

    await userEvent.click(row.getByRole('button', { name: 'Remove Grace Hopper' }));
    await waitFor(() => expect(table.queryByText('Grace Hopper')).toBeNull());
    expect(server.members[model.id]!.map((member) => member.user.email)).toEqual([me.email]);
  });

  it('shows a guest everything read-only, with the reason', async () => {
    const model = makeModel({ name: 'Lines', description: 'Reads lines', role: 'guest' });
    const kraken = makeWorker('Kraken');
    const server = fakeModelsServer({
      models: [model],
      versions: [makeVersion(model, { tag: 'v1' })],
      workers: [kraken],
      compatible: { [model.id]: [kraken.id] },
    });
    renderModels(`/model/${model.id}`);
    expect(await screen.findByText(MODEL_WRITE_REQUIRED)).toBeTruthy();
    expect(MODEL_WRITE_REQUIRED).toBe('A contributor access level is required to edit a model');
    const name = screen.getByRole('textbox', { name: /Name/ }) as HTMLInputElement;
    expect(name.value).toBe('Lines');
    expect(name.disabled).toBe(true);
    expect(
      (screen.getByRole('textbox', { name: 'Description' }) as HTMLTextAreaElement).disabled,
    ).toBe(true);
    expect(screen.queryByRole('button', { name: 'Update' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'New version' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Archive' })).toBeNull();
    expect(await screen.findByRole('link', { name: 'Version v1' })).toBeTruthy();
    expect(await screen.findByText('Kraken')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Remove/ })).toBeNull();
    expect(screen.queryByRole('combobox', { name: 'Worker to add' })).toBeNull();
    expect(server.calls.filter((call) => call.method !== 'GET')).toEqual([]);
  });

  it('says why the model could not be retrieved in the words of the spec', async () => {
    const id = '00000000-0000-4000-b000-999999999999';
    fakeModelsServer();
    renderModels(`/model/${id}`);
    expect(
      await screen.findByText(`An error occurred retrieving model ${id}: Not found.`),
    ).toBeTruthy();
    expect(screen.getByText('The model could not be loaded.')).toBeTruthy();
  });
});

describe('the model version page', () => {
  it('shows the tag, state, size, hash, description and configuration, and a download link', async () => {
    const model = makeModel({ name: 'Lines' });
    const version = makeVersion(model, {
      tag: 'v3',
      description: 'Trained on **letters**',
      configuration: { threshold: 0.5 },
      size: 2_300,
    });
    fakeModelsServer({ models: [model], versions: [version] });
    renderModels(`/model-version/${version.id}`);
    await screen.findByRole('heading', { name: 'Model version v3', level: 1 });
    const value = (label: string) =>
      screen.getByText(label, { selector: 'dt' }).nextElementSibling!.textContent;
    expect(value('Tag')).toBe('v3');
    expect(value('State')).toBe('available');
    expect(value('Size')).toBe('2.3 KB');
    expect(value('Hash')).toBe('ab'.repeat(32));
    expect(await screen.findByText('letters', { selector: 'strong' })).toBeTruthy();
    expect(screen.getByText(/"threshold": 0.5/, { selector: 'pre' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Download' }).getAttribute('href')).toBe(
      `/api/v1/modelversion/${version.id}/download/`,
    );
    expect(screen.getByRole('link', { name: 'Lines' }).getAttribute('href')).toBe(
      `/model/${model.id}`,
    );
  });

  it("lets the model's contributors change a version's tag, description and configuration", async () => {
    const model = makeModel({ name: 'Lines', role: 'contributor' });
    const version = makeVersion(model, { tag: 'v3', configuration: { threshold: 0.5 } });
    const server = fakeModelsServer({ models: [model], versions: [version] });
    renderModels(`/model-version/${version.id}`);
    const editor = within(await screen.findByRole('region', { name: 'Edit this version' }));
    const configuration = editor.getByRole('textbox', { name: 'Configuration (JSON)' });
    const save = editor.getByRole('button', { name: 'Save' }) as HTMLButtonElement;

    await userEvent.clear(configuration);
    await userEvent.type(configuration, '[[1, 2]');
    expect(editor.getByText(CONFIGURATION_NOT_AN_OBJECT)).toBeTruthy();
    expect(save.disabled).toBe(true);
    await userEvent.clear(configuration);
    await userEvent.type(configuration, '{{"threshold": 0.8}');
    const tag = editor.getByRole('textbox', { name: 'Tag' });
    await userEvent.clear(tag);
    await userEvent.type(tag, 'v3.1');
    await userEvent.click(save);

    expect(await screen.findByText('The model version has been updated.')).toBeTruthy();
    expect(server.callsTo('PATCH', `/modelversion/${version.id}/`)[0]!.body).toEqual({
      tag: 'v3.1',
      description: '',
      configuration: { threshold: 0.8 },
    });
    await screen.findByRole('heading', { name: 'Model version v3.1', level: 1 });
  });

  it('deletes a version after confirmation and goes back to its model', async () => {
    const model = makeModel({ name: 'Lines', role: 'contributor' });
    const version = makeVersion(model, { tag: 'v3' });
    const server = fakeModelsServer({ models: [model], versions: [version] });
    const { router } = renderModels(`/model-version/${version.id}`);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete this version' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Delete this version' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Delete' }));
    await screen.findByRole('heading', { name: 'Lines', level: 1 });
    expect(router.state.location.pathname).toBe(`/model/${model.id}`);
    expect(server.callsTo('DELETE', `/modelversion/${version.id}/`)).toHaveLength(1);
    expect(await screen.findByText('This model has no versions yet.')).toBeTruthy();
  });

  it('shows a guest the version without its editor', async () => {
    const model = makeModel({ name: 'Lines', role: 'guest' });
    const version = makeVersion(model, { tag: 'v3' });
    const server = fakeModelsServer({ models: [model], versions: [version] });
    renderModels(`/model-version/${version.id}`);
    await screen.findByRole('heading', { name: 'Model version v3', level: 1 });
    await waitFor(() => expect(server.callsTo('GET', `/model/${model.id}/`)).toHaveLength(1));
    expect(screen.queryByRole('region', { name: 'Edit this version' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete this version' })).toBeNull();
  });

  it('offers no download before the archive is uploaded', async () => {
    const model = makeModel({ name: 'Lines' });
    const version = makeVersion(model, { tag: 'v4', state: 'created', size: null, hash: null });
    fakeModelsServer({ models: [model], versions: [version] });
    renderModels(`/model-version/${version.id}`);
    await screen.findByRole('heading', { name: 'Model version v4', level: 1 });
    expect(screen.getByText('created')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Download' })).toBeNull();
  });
});
