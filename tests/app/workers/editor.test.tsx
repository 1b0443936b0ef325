// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import '../shell/domStubs';
import { describe, expect, it, vi } from 'vitest';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { connectivity } from '@/offline/runtime';
import {
  MISSING_MODEL_ID,
  MODEL_ID,
  PAGE_MODEL_ID,
  SCHEMA,
  apiError,
  fakeWorkersServer,
  isolateEachTest,
  makeConfiguration,
  makeCorpus,
  makeVersion,
  makeWorker,
  plainUser,
  renderWorkers,
} from './harness';

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

const worker = makeWorker('Line recognizer');
const version = makeVersion(worker);

async function openNewEditor(options: Parameters<typeof fakeWorkersServer>[0] = {}, url?: string) {
  const server = fakeWorkersServer({ workers: [worker], versions: [version], ...options });
  renderWorkers(url ?? `/process/workers/${worker.id}`);
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'New configuration' }));
  const dialog = within(await screen.findByRole('dialog', { name: 'New configuration' }));
  return { server, user, dialog };
}

const posts = (server: ReturnType<typeof fakeWorkersServer>) =>
  server.callsTo('POST', `/workers/${worker.id}/configurations/`);

describe('the configuration editor form', () => {
  it("narrows a model field's choices by a name search", async () => {
    const { user, dialog } = await openNewEditor();
    const picker = dialog.getByRole('combobox', { name: 'Pick a model' });
    await waitFor(() => expect(within(picker).getAllByRole('option')).toHaveLength(3));
    await user.type(dialog.getByRole('searchbox', { name: 'Search models by name' }), 'page');
    await waitFor(() =>
      expect(
        within(picker)
          .getAllByRole('option')
          .map((option) => option.textContent),
      ).toEqual(['Pick a model', 'Page model']),
    );
    await user.selectOptions(picker, PAGE_MODEL_ID);
    expect((dialog.getByLabelText(/^Model/) as HTMLInputElement).value).toBe(PAGE_MODEL_ID);
  });

  it('shows a field of every type, required marks and the defaults', async () => {
    const { dialog } = await openNewEditor();
    expect((dialog.getByLabelText(/^Batch size/) as HTMLInputElement).value).toBe('8');
    expect((dialog.getByLabelText(/^Threshold/) as HTMLInputElement).value).toBe('');
    expect((dialog.getByLabelText(/^Mode\b/) as HTMLSelectElement).selectedOptions[0]!.text).toBe(
      'fast',
    );
    expect((dialog.getByLabelText(/^Verbose/) as HTMLInputElement).checked).toBe(false);
    expect(dialog.getByLabelText(/^Notes/).tagName).toBe('TEXTAREA');
    expect(dialog.getByText('Free text')).toBeTruthy();
    expect(dialog.getByRole('group', { name: /^Mapping/ })).toBeTruthy();
    expect(dialog.getByLabelText(/^Sizes/).getAttribute('placeholder')).toBe('One int per line');
    expect(dialog.getByLabelText(/^Model/)).toBeTruthy();
    expect(dialog.getByRole('combobox', { name: 'Pick a model' })).toBeTruthy();
    expect(dialog.getByLabelText(/^Token/)).toBeTruthy();
    // No project known: an element type is typed as a slug.
    expect(dialog.getByLabelText(/^Zone type/).getAttribute('placeholder')).toBe(
      'Element type slug',
    );
    expect(dialog.getByLabelText(/^Parent version/)).toBeTruthy();
    const group = dialog.getByRole('group', { name: 'Options' });
    expect((within(group).getByLabelText(/^Size/) as HTMLInputElement).value).toBe('3');
    // Required unless the schema says otherwise.
    expect(dialog.getByLabelText(/^Label/).getAttribute('aria-required')).toBe('true');
    expect(dialog.getByLabelText(/^Threshold/).getAttribute('aria-required')).toBeNull();
  });

  it('offers the project types for an element type when the address names a project', async () => {
    const corpus = makeCorpus();
    const { dialog } = await openNewEditor(
      { corpora: [corpus] },
      `/process/workers/${worker.id}?corpus=${corpus.id}`,
    );
    await waitFor(() => expect(dialog.getByLabelText(/^Zone type/).tagName).toBe('SELECT'));
    const options = [...(dialog.getByLabelText(/^Zone type/) as HTMLSelectElement).options];
    expect(options.map((option) => option.text)).toEqual(['—', 'Page', 'Text line']);
  });

  it('asks for a name and for required fields, sending nothing', async () => {
    const { server, user, dialog } = await openNewEditor();
    await user.type(dialog.getByLabelText(/^Label/), 'lines');
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    expect(await dialog.findByText('Please name your configuration')).toBeTruthy();

    // Named, but the required label emptied: the field says so and nothing is sent.
    await user.type(dialog.getByLabelText(/^Name/), 'Fast');
    await user.clear(dialog.getByLabelText(/^Label/));
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    expect(await dialog.findByText('This field is required.')).toBeTruthy();
    expect(dialog.queryByText('Please name your configuration')).toBeNull();

    // A required field emptied in the form is asked for, even where a default would stand in.
    await user.type(dialog.getByLabelText(/^Label/), 'lines');
    await user.clear(dialog.getByLabelText(/^Batch size/));
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(dialog.getByLabelText(/^Batch size/).getAttribute('aria-invalid')).toBe('true'),
    );
    expect(dialog.getAllByText('This field is required.')).toHaveLength(1);
    expect(posts(server)).toHaveLength(0);
  });

  it('refuses the defaults as they stand: This already is the default configuration', async () => {
    const defaultsOnly = makeVersion(worker, {
      configuration: {
        user_configuration: {
          batch_size: { title: 'Batch size', type: 'int', default: 8 },
          verbose: { title: 'Verbose', type: 'bool', default: true },
        },
      },
    });
    const { server, user, dialog } = await openNewEditor({ versions: [defaultsOnly] });
    await user.type(dialog.getByLabelText(/^Name/), 'Same');
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    expect(await dialog.findByText('This already is the default configuration')).toBeTruthy();
    await user.clear(dialog.getByLabelText(/^Batch size/));
    await user.type(dialog.getByLabelText(/^Batch size/), '16');
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(posts(server)).toHaveLength(1));
    expect(posts(server)[0]!.body).toEqual({
      name: 'Same',
      configuration: { batch_size: 16, verbose: true },
      worker_version_id: defaultsOnly.id,
    });
  });

  it('shows each field check under its field, in the spec words', async () => {
    const { server, user, dialog } = await openNewEditor();
    await user.type(dialog.getByLabelText(/^Name/), 'Broken');
    await user.clear(dialog.getByLabelText(/^Batch size/));
    await user.type(dialog.getByLabelText(/^Batch size/), 'many');
    await user.type(dialog.getByLabelText(/^Threshold/), 'high');
    await user.type(dialog.getByLabelText(/^Sizes/), '1{enter}two');
    await user.type(dialog.getByLabelText(/^Model/), 'not-a-uuid');
    await user.type(dialog.getByLabelText(/^Parent version/), '1234');
    const group = within(dialog.getByRole('group', { name: 'Options' }));
    await user.clear(group.getByLabelText(/^Size/));
    await user.type(group.getByLabelText(/^Size/), '2.5');
    await user.click(dialog.getByRole('button', { name: 'Save' }));

    const messageOf = (label: RegExp | HTMLElement) => {
      const input = label instanceof HTMLElement ? label : dialog.getByLabelText(label);
      const id = input.getAttribute('aria-describedby')!;
      return document.getElementById(id.split(' ').pop()!)!.textContent;
    };
    await waitFor(() => expect(messageOf(/^Batch size/)).toBe('Value must be a valid integer.'));
    expect(messageOf(/^Threshold/)).toBe('Value must be a valid float.');
    expect(messageOf(/^Sizes/)).toBe('Value must be a valid list of int.');
    expect(messageOf(/^Model/)).toBe('Value must be a valid UUID');
    expect(messageOf(/^Parent version/)).toBe('Value must be a valid UUID');
    expect(messageOf(/^Label/)).toBe('This field is required.');
    expect(messageOf(group.getByLabelText(/^Size/))).toBe('Value must be a valid integer.');
    expect(dialog.getByLabelText(/^Batch size/).getAttribute('aria-invalid')).toBe('true');
    expect(posts(server)).toHaveLength(0);
  });

  it('saves every field type with its JSON type, then shows the configuration', async () => {
    const { server, user, dialog } = await openNewEditor();
    await user.type(dialog.getByLabelText(/^Name/), 'Everything');
    await user.type(dialog.getByLabelText(/^Threshold/), '0.25');
    await user.type(dialog.getByLabelText(/^Label/), 'lines');
    await user.type(dialog.getByLabelText(/^Notes/), 'one{enter}two');
    await user.selectOptions(dialog.getByLabelText(/^Mode\b/), 'accurate');
    await user.click(dialog.getByLabelText(/^Verbose/));
    await user.click(dialog.getByRole('button', { name: 'Add an entry' }));
    await user.type(dialog.getByLabelText('Key 1'), 'lang');
    await user.type(dialog.getByLabelText('Value 1'), 'fr');
    await user.type(dialog.getByLabelText(/^Sizes/), '1{enter}2');
    await waitFor(() => expect(dialog.getByRole('option', { name: 'Line model' })).toBeTruthy());
    await user.selectOptions(dialog.getByRole('combobox', { name: 'Pick a model' }), MODEL_ID);
    expect((dialog.getByLabelText(/^Model/) as HTMLInputElement).value).toBe(MODEL_ID);
    await user.type(dialog.getByLabelText(/^Token/), 'api-token');
    await user.type(dialog.getByLabelText(/^Zone type/), 'text_line');
    await user.type(dialog.getByLabelText(/^Parent version/), version.id);
    await user.click(dialog.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(posts(server)).toHaveLength(1));
    expect(posts(server)[0]!.body).toEqual({
      name: 'Everything',
      worker_version_id: version.id,
      configuration: {
        batch_size: 8,
        threshold: 0.25,
        label: 'lines',
        notes: 'one\ntwo',
        mode: 'accurate',
        verbose: true,
        mapping: { lang: 'fr' },
        sizes: [1, 2],
        model: MODEL_ID,
        token: 'api-token',
        zone_type: 'text_line',
        parent: version.id,
        options: { size: 3 },
      },
    });
    const view = within(await screen.findByRole('dialog', { name: 'Configuration Everything' }));
    expect((view.getByLabelText(/^Threshold/) as HTMLInputElement).value).toBe('0.25');
    expect((view.getByLabelText(/^Threshold/) as HTMLInputElement).disabled).toBe(true);
    expect(await screen.findByText('Configuration Everything created.')).toBeTruthy();
  });

  it('shows a check the server makes under its field (This model does not exist)', async () => {
    const { user, dialog } = await openNewEditor({
      overrides: {
        [`POST /workers/${worker.id}/configurations/`]: () =>
          apiError(400, [{ attr: 'configuration.model', detail: 'This model does not exist' }]),
      },
    });
    await user.type(dialog.getByLabelText(/^Name/), 'Ghost model');
    await user.type(dialog.getByLabelText(/^Label/), 'x');
    await user.type(dialog.getByLabelText(/^Model/), MISSING_MODEL_ID);
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    expect(await dialog.findByText('This model does not exist')).toBeTruthy();
    const input = dialog.getByLabelText(/^Model/);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    // Picking another model takes the message away.
    await user.selectOptions(dialog.getByRole('combobox', { name: 'Pick a model' }), MODEL_ID);
    expect(dialog.queryByText('This model does not exist')).toBeNull();
    expect(input.getAttribute('aria-invalid')).toBeNull();
  });

  it('on a name taken, shows the first error with a link that opens the existing one', async () => {
    const existing = makeConfiguration('Taken', { label: 'old', batch_size: 2 });
    const { user, dialog } = await openNewEditor({
      configurations: { [worker.id]: [existing] },
    });
    await user.type(dialog.getByLabelText(/^Name/), 'Taken');
    await user.type(dialog.getByLabelText(/^Label/), 'new');
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    const detail = 'A worker configuration with this name already exists for this worker.';
    const alert = await dialog.findByText(detail, { exact: false, selector: 'p' });
    const link = within(alert).getByRole('link', { name: 'See the existing configuration' });
    expect(link.getAttribute('href')).toBe(
      `/process/workers/${worker.id}?configuration=${existing.id}`,
    );
    // The notification says it too.
    expect(screen.getAllByText(detail).length).toBeGreaterThanOrEqual(2);
    await user.click(link);
    const view = within(await screen.findByRole('dialog', { name: 'Configuration Taken' }));
    expect((view.getByLabelText(/^Label/) as HTMLInputElement).value).toBe('old');
  });
});

describe('the raw JSON mode', () => {
  it('carries the form values over and checks the JSON with the same words', async () => {
    const { server, user, dialog } = await openNewEditor();
    await user.type(dialog.getByLabelText(/^Label/), 'lines');
    await user.click(dialog.getByRole('button', { name: 'Edit as JSON' }));
    const textarea = dialog.getByLabelText('JSON configuration') as HTMLTextAreaElement;
    expect(JSON.parse(textarea.value)).toEqual({
      batch_size: 8,
      label: 'lines',
      mode: 'fast',
      verbose: false,
      options: { size: 3 },
    });
    await user.type(dialog.getByLabelText(/^Name/), 'Raw');

    const submitJson = async (text: string) => {
      await user.clear(textarea);
      // user-event reads braces as key names: paste the text instead.
      await user.click(textarea);
      await user.paste(text);
      await user.click(dialog.getByRole('button', { name: 'Save' }));
    };
    await submitJson('{ not json');
    expect(await dialog.findByText('Please enter a valid JSON configuration')).toBeTruthy();
    await submitJson('{}');
    expect(await dialog.findByText('Please enter a valid JSON configuration')).toBeTruthy();
    await submitJson('[1, 2]');
    expect(await dialog.findByText('Please enter a valid JSON configuration')).toBeTruthy();
    await submitJson(
      JSON.stringify({
        label: 'x',
        colour: 'red',
        mode: 'slow',
        verbose: 'yes',
        mapping: ['a'],
        sizes: [1, 'b'],
      }),
    );
    expect(await dialog.findByText('colour: Unrecognised field')).toBeTruthy();
    expect(dialog.getByText('mode: slow is not a valid option.')).toBeTruthy();
    expect(dialog.getByText('verbose: Value must be a valid boolean.')).toBeTruthy();
    expect(dialog.getByText('mapping: Value must be a valid dictionary.')).toBeTruthy();
    expect(dialog.getByText('sizes: Value must be a valid list of int.')).toBeTruthy();
    expect(posts(server)).toHaveLength(0);

    await submitJson(JSON.stringify({ label: 'x', mapping: { n: 1 } }));
    await waitFor(() => expect(posts(server)).toHaveLength(1));
    // Dictionary values are cast to text.
    expect(posts(server)[0]!.body).toMatchObject({
      configuration: { label: 'x', mapping: { n: '1' } },
    });
  });

  it('goes back to the form only with valid JSON', async () => {
    const { user, dialog } = await openNewEditor();
    await user.click(dialog.getByRole('button', { name: 'Edit as JSON' }));
    const textarea = dialog.getByLabelText('JSON configuration');
    await user.clear(textarea);
    await user.click(textarea);
    await user.paste('nope');
    await user.click(dialog.getByRole('button', { name: 'Edit as a form' }));
    expect(await dialog.findByText('Please enter a valid JSON configuration')).toBeTruthy();
    await user.clear(textarea);
    await user.click(textarea);
    await user.paste('{"label": "from json", "batch_size": 4}');
    await user.click(dialog.getByRole('button', { name: 'Edit as a form' }));
    expect((dialog.getByLabelText(/^Label/) as HTMLInputElement).value).toBe('from json');
    expect((dialog.getByLabelText(/^Batch size/) as HTMLInputElement).value).toBe('4');
  });
});

describe('cloning and archiving', () => {
  it("clones a configuration as 'Copy of …' with its values", async () => {
    const source = makeConfiguration('Fast', { label: 'lines', batch_size: 2 });
    const server = fakeWorkersServer({
      workers: [worker],
      versions: [version],
      configurations: { [worker.id]: [source] },
    });
    renderWorkers(`/process/workers/${worker.id}`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Clone Fast' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Clone a configuration' }));
    expect((dialog.getByLabelText(/^Name/) as HTMLInputElement).value).toBe('Copy of Fast');
    expect((dialog.getByLabelText(/^Batch size/) as HTMLInputElement).value).toBe('2');
    expect(dialog.queryByRole('status')).toBeNull();
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(posts(server)).toHaveLength(1));
    expect(posts(server)[0]!.body).toMatchObject({
      name: 'Copy of Fast',
      configuration: { label: 'lines', batch_size: 2 },
    });
  });

  it('a clone that no longer matches the schema warns and starts from the defaults', async () => {
    const stale = makeConfiguration('Old', { label: 'x', removed_field: 3 });
    fakeWorkersServer({
      workers: [worker],
      versions: [version],
      configurations: { [worker.id]: [stale] },
    });
    renderWorkers(`/process/workers/${worker.id}?configuration=${stale.id}`);
    const user = userEvent.setup();
    const view = within(await screen.findByRole('dialog', { name: 'Configuration Old' }));
    await user.click(view.getByRole('button', { name: 'Clone' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Clone a configuration' }));
    expect(dialog.getByRole('status').textContent).toBe(
      "The cloned configuration does not match this worker version's fields: the default values are used instead.",
    );
    expect((dialog.getByLabelText(/^Name/) as HTMLInputElement).value).toBe('Copy of Old');
    expect((dialog.getByLabelText(/^Label/) as HTMLInputElement).value).toBe('');
    expect((dialog.getByLabelText(/^Batch size/) as HTMLInputElement).value).toBe('8');
  });

  it('archives and unarchives for a user who may manage workers; the filter lists each', async () => {
    const configuration = makeConfiguration('Keep', { label: 'x' });
    const server = fakeWorkersServer({
      workers: [worker],
      versions: [version],
      configurations: { [worker.id]: [configuration] },
    });
    renderWorkers(`/process/workers/${worker.id}`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Keep' }));
    let view = within(await screen.findByRole('dialog', { name: 'Configuration Keep' }));
    await user.click(view.getByRole('button', { name: 'Archive' }));
    await waitFor(() =>
      expect(server.callsTo('PATCH', `/workers/configurations/${configuration.id}/`)).toHaveLength(
        1,
      ),
    );
    expect(
      server.callsTo('PATCH', `/workers/configurations/${configuration.id}/`)[0]!.body,
    ).toEqual({ archived: true });
    view = within(await screen.findByRole('dialog', { name: 'Configuration Keep' }));
    expect(await view.findByRole('button', { name: 'Unarchive' })).toBeTruthy();
    expect(
      view.getByText('This configuration is archived: it cannot be chosen in a process.'),
    ).toBeTruthy();
    await user.click(view.getByRole('button', { name: 'Close' }));

    // Enabled lists it no more; Archived does.
    await waitFor(() => expect(screen.getByText('No configuration yet.')).toBeTruthy());
    await user.click(screen.getByRole('radio', { name: 'Archived' }));
    expect(await screen.findByRole('button', { name: 'Keep' })).toBeTruthy();
    expect(
      server.calls.some(
        (call) =>
          call.path === `/workers/${worker.id}/configurations/` &&
          call.query.get('archived') === 'true',
      ),
    ).toBe(true);
  });

  it('offers no archive button to a user who may not manage workers', async () => {
    const configuration = makeConfiguration('Keep', { label: 'x' });
    fakeWorkersServer({
      workers: [worker],
      versions: [version],
      configurations: { [worker.id]: [configuration] },
      user: plainUser,
    });
    renderWorkers(`/process/workers/${worker.id}?configuration=${configuration.id}`, plainUser);
    const view = within(await screen.findByRole('dialog', { name: 'Configuration Keep' }));
    expect(view.getByRole('button', { name: 'Clone' })).toBeTruthy();
    expect(view.queryByRole('button', { name: 'Archive' })).toBeNull();
  });
});

describe('a 403 on the configurations', () => {
  it('is shown in place of the list, not as a notification', async () => {
    fakeWorkersServer({
      workers: [worker],
      versions: [version],
      overrides: {
        [`GET /workers/${worker.id}/configurations/`]: () =>
          apiError(403, [
            { attr: null, detail: 'You do not have permission.', code: 'permission_denied' },
          ]),
      },
    });
    renderWorkers(`/process/workers/${worker.id}`);
    expect(
      await screen.findByText(
        "You cannot list this worker's configurations: You do not have permission.",
      ),
    ).toBeTruthy();
    expect(screen.getAllByText(/You do not have permission\./)).toHaveLength(1);
  });
});

// The schema used above holds every field type the spec lists.
it('the test schema covers every field type', () => {
  expect(new Set(Object.values(SCHEMA).map((field) => field.type)).size).toBe(13);
});

describe('a worker without fields', () => {
  it('takes its configurations as JSON, checked to be a non-empty object', async () => {
    const bare = makeVersion(worker, { configuration: {} });
    const { server, user, dialog } = await openNewEditor({ versions: [bare] });
    const textarea = dialog.getByLabelText('JSON configuration');
    expect(dialog.queryByRole('button', { name: 'Edit as a form' })).toBeNull();
    await user.type(dialog.getByLabelText(/^Name/), 'Raw');
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    expect(await dialog.findByText('Please enter a valid JSON configuration')).toBeTruthy();
    await user.clear(textarea);
    await user.click(textarea);
    await user.paste('{"anything": [1, 2]}');
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(posts(server)).toHaveLength(1));
    expect(posts(server)[0]!.body).toEqual({ name: 'Raw', configuration: { anything: [1, 2] } });
    const view = within(await screen.findByRole('dialog', { name: 'Configuration Raw' }));
    expect(
      JSON.parse((view.getByLabelText('JSON configuration') as HTMLTextAreaElement).value),
    ).toEqual({
      anything: [1, 2],
    });
  });
});

describe('what the editor cannot do', () => {
  it('offline, new configurations wait for the network', async () => {
    fakeWorkersServer({ workers: [worker], versions: [version] });
    renderWorkers(`/process/workers/${worker.id}`);
    const button = await screen.findByRole('button', { name: 'New configuration' });
    connectivity.store.set({ online: false, checkedAt: null });
    await waitFor(() => expect(button.getAttribute('aria-disabled')).toBe('true'));
    expect(button.getAttribute('title')).toBe('Needs the network');
    await userEvent.setup().click(button);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('says which field has a type it does not know, offering no input for it', async () => {
    const odd = makeVersion(worker, {
      configuration: {
        user_configuration: {
          label: { title: 'Label', type: 'string' },
          colour: { title: 'Colour', type: 'colour' as never },
        },
      },
    });
    const { dialog } = await openNewEditor({ versions: [odd] });
    expect(dialog.getByText('Unknown field type: colour')).toBeTruthy();
    expect(dialog.queryByRole('textbox', { name: 'Colour' })).toBeNull();
  });
});
