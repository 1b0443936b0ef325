// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import '../shell/domStubs';
import { describe, expect, it, vi } from 'vitest';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { connectivity } from '@/offline/runtime';
import {
  apiError,
  fakeWorkersServer,
  isolateEachTest,
  makeVersion,
  makeWorker,
  plainUser,
  renderWorkers,
} from './harness';

vi.mock('@/app/serviceWorker', async () => {
  const { createStore } = await import('@/lib/store');
  return {
    updateAvailable: createStore(false),
    applyUpdate: vi.fn(),
    registerServiceWorker: () => {},
  };
});

configure({ asyncUtilTimeout: 10_000 });

isolateEachTest();

async function openCreateWorker() {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'Create a worker' }));
  const dialog = within(await screen.findByRole('dialog', { name: 'Create a worker' }));
  return { user, dialog };
}

describe('creating a worker', () => {
  it('suggests the slug from the name, takes a new type, and opens the new worker', async () => {
    const server = fakeWorkersServer({ workers: [] });
    renderWorkers('/process/workers/');
    const { user, dialog } = await openCreateWorker();

    await user.type(dialog.getByLabelText(/^Name/), 'Line OCR (café)');
    const slug = dialog.getByLabelText(/^Slug/) as HTMLInputElement;
    expect(slug.value).toBe('line-ocr-cafe');
    // Once edited, the slug is the author's: renaming no longer changes it.
    await user.clear(slug);
    await user.type(slug, 'line_ocr');
    await user.type(dialog.getByLabelText(/^Name/), ' 2');
    expect(slug.value).toBe('line_ocr');
    expect(dialog.getByRole('button', { name: 'Create' }).hasAttribute('disabled')).toBe(true);

    await user.type(dialog.getByLabelText(/^Type/), 'segmenter');
    await user.type(dialog.getByLabelText('Description'), 'Finds lines');
    await user.type(dialog.getByLabelText('Repository URL'), 'https://git.example.org/ocr');
    await user.click(dialog.getByRole('button', { name: 'Create' }));

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Line OCR (café) 2' }),
    ).toBeTruthy();
    expect(server.callsTo('POST', '/workers/')[0]!.body).toEqual({
      name: 'Line OCR (café) 2',
      slug: 'line_ocr',
      type: 'segmenter',
      description: 'Finds lines',
      repository_url: 'https://git.example.org/ocr',
    });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByText('line_ocr')).toBeTruthy();
  });

  it('offers the site’s worker types to pick from', async () => {
    fakeWorkersServer();
    renderWorkers('/process/workers/');
    const { dialog } = await openCreateWorker();
    const input = dialog.getByLabelText(/^Type/);
    const list = document.getElementById(input.getAttribute('list')!)!;
    await waitFor(() =>
      expect([...list.querySelectorAll('option')].map((option) => option.value)).toEqual([
        'classifier',
        'recognizer',
        'custom',
      ]),
    );
  });

  it('says when a worker already has the slug, links it, and creates nothing', async () => {
    const existing = makeWorker('Line recognizer', { slug: 'line-recognizer' });
    const server = fakeWorkersServer({ workers: [existing] });
    renderWorkers('/process/workers/');
    const { user, dialog } = await openCreateWorker();
    await user.type(dialog.getByLabelText(/^Name/), 'Line recognizer');
    await user.type(dialog.getByLabelText(/^Type/), 'recognizer');
    await user.click(dialog.getByRole('button', { name: 'Create' }));

    const alert = await dialog.findByRole('alert');
    expect(alert.textContent).toContain(
      'A worker with the slug line-recognizer already exists: nothing was created.',
    );
    expect(
      within(alert).getByRole('link', { name: 'Open Line recognizer' }).getAttribute('href'),
    ).toBe(`/process/workers/${existing.id}`);
    // Still on the list, the modal open, one worker only.
    expect(screen.getByRole('heading', { level: 1, name: 'Workers' })).toBeTruthy();
    expect(server.workers).toHaveLength(1);

    // Another slug typed: the message about the first one goes.
    await user.type(dialog.getByLabelText(/^Slug/), '-2');
    expect(dialog.queryByRole('alert')).toBeNull();
  });

  it('shows the server’s refusals under their fields', async () => {
    fakeWorkersServer({
      overrides: {
        'POST /workers/': () =>
          apiError(400, [
            { attr: 'repository_url', detail: 'Enter a valid URL.' },
            { attr: 'type', detail: 'Ensure this field has no more than 100 characters.' },
          ]),
      },
    });
    renderWorkers('/process/workers/');
    const { user, dialog } = await openCreateWorker();
    await user.type(dialog.getByLabelText(/^Name/), 'Odd');
    await user.type(dialog.getByLabelText(/^Type/), 'recognizer');
    await user.type(dialog.getByLabelText('Repository URL'), 'nope');
    await user.click(dialog.getByRole('button', { name: 'Create' }));

    const repository = dialog.getByLabelText('Repository URL');
    await waitFor(() => expect(repository.getAttribute('aria-invalid')).toBe('true'));
    const described = repository.getAttribute('aria-describedby')!.split(' ');
    expect(described.map((id) => document.getElementById(id)!.textContent)).toContain(
      'Enter a valid URL.',
    );
    expect(dialog.getByLabelText(/^Type/).getAttribute('aria-invalid')).toBe('true');
    expect(dialog.getByText('Ensure this field has no more than 100 characters.')).toBeTruthy();
    expect(dialog.getByLabelText(/^Name/).getAttribute('aria-invalid')).toBeNull();
  });

  it('offline, waits for the network', async () => {
    fakeWorkersServer();
    renderWorkers('/process/workers/');
    const button = await screen.findByRole('button', { name: 'Create a worker' });
    connectivity.store.set({ online: false, checkedAt: null });
    await waitFor(() => expect(button.getAttribute('aria-disabled')).toBe('true'));
    expect(button.getAttribute('title')).toBe('Needs the network');
    await userEvent.setup().click(button);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('publishing a version', () => {
  const worker = makeWorker('Line recognizer');

  async function openNewVersion(versions = [makeVersion(worker, { version: 1 })]) {
    const server = fakeWorkersServer({ workers: [worker], versions: [...versions] });
    renderWorkers(`/process/workers/${worker.id}`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'New version' }));
    const dialog = within(
      await screen.findByRole('dialog', { name: 'New version of Line recognizer' }),
    );
    return { server, user, dialog };
  }

  it('checks the schema as it is typed, each problem with its key', async () => {
    const { user, dialog } = await openNewVersion();
    const schema = dialog.getByLabelText('Settings schema (JSON)');
    await user.click(schema);
    await user.paste('{"size": {"title": "Size", "type": "colour"}, "mode": {"type": "enum"}');
    const problems = () =>
      within(dialog.getByRole('list', { name: 'Schema problems' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent);
    expect(problems()[0]).toMatch(/^This is not valid JSON/);
    await user.type(schema, '}');
    expect(problems()).toEqual([
      'size.type: Unknown field type',
      'mode.title: A field needs a title.',
      'mode.choices: An enum field needs a list of choices.',
    ]);
    expect(schema.getAttribute('aria-invalid')).toBe('true');
    expect(dialog.getByRole('button', { name: 'Create' }).hasAttribute('disabled')).toBe(true);
  });

  it('creates the version, opens it, and lets it be made available', async () => {
    const { server, user, dialog } = await openNewVersion();
    await user.type(dialog.getByLabelText('Tag'), 'v2.0');
    await user.type(dialog.getByLabelText('Branch'), 'main');
    await user.selectOptions(dialog.getByLabelText('GPU usage'), 'supported');
    await user.selectOptions(dialog.getByLabelText('Model usage'), 'required');
    await user.click(dialog.getByLabelText('Settings schema (JSON)'));
    await user.paste('{"lang": {"title": "Language", "type": "enum", "choices": ["fra", "eng"]}}');
    expect(dialog.queryByRole('list', { name: 'Schema problems' })).toBeNull();
    await user.click(dialog.getByRole('button', { name: 'Create' }));

    // The version's page: numbered 2 as it has no revision, still `created`.
    expect(await screen.findByRole('heading', { level: 1, name: /Line recognizer/ })).toBeTruthy();
    const details = within(screen.getByRole('region', { name: 'Details' }));
    await waitFor(() => expect(details.getByText('v2.0')).toBeTruthy());
    expect(details.getByText('main')).toBeTruthy();
    expect(details.getByText('required')).toBeTruthy();
    expect(server.callsTo('POST', `/workers/${worker.id}/versions/`)[0]!.body).toEqual({
      state: 'created',
      gpu_usage: 'supported',
      model_usage: 'required',
      tag: 'v2.0',
      branch: 'main',
      configuration: {
        user_configuration: {
          lang: { title: 'Language', type: 'enum', choices: ['fra', 'eng'] },
        },
      },
    });
    const created = server.versions[0]!;
    expect(created.version).toBe(2);
    expect(screen.getByText('created')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Make available' }));
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Make available' })).toBeNull(),
    );
    expect(server.callsTo('PATCH', `/workers/versions/${created.id}/`)[0]!.body).toEqual({
      state: 'available',
    });
    expect(screen.getByText('available')).toBeTruthy();

    // Back on the worker, the list shows the new version first.
    await user.click(screen.getByRole('link', { name: 'Line recognizer' }));
    const table = within(await screen.findByRole('table', { name: 'Versions' }));
    await waitFor(() => expect(table.getAllByRole('row')).toHaveLength(3));
    expect(table.getAllByRole('row')[1]!.textContent).toContain('v2.0 / main');
  });

  it('shows the server’s refusals: the revision under its field, schema problems by key', async () => {
    const worker2 = makeWorker('Page splitter');
    const server = fakeWorkersServer({
      workers: [worker2],
      overrides: {
        [`POST /workers/${worker2.id}/versions/`]: () =>
          apiError(400, [
            { attr: 'revision_url', detail: 'A version with this revision already exists.' },
            { attr: 'configuration.user_configuration.lang', detail: 'Unknown field type' },
          ]),
      },
    });
    renderWorkers(`/process/workers/${worker2.id}`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'New version' }));
    const dialog = within(await screen.findByRole('dialog', { name: /New version/ }));
    const revision = dialog.getByLabelText('Revision URL');
    await user.type(revision, 'https://git.example.org/ocr/-/commit/1');
    await user.click(dialog.getByLabelText('Settings schema (JSON)'));
    await user.paste('{"lang": {"title": "Language", "type": "string"}}');
    await user.click(dialog.getByRole('button', { name: 'Create' }));

    await waitFor(() => expect(revision.getAttribute('aria-invalid')).toBe('true'));
    expect(dialog.getByText('A version with this revision already exists.')).toBeTruthy();
    expect(
      within(dialog.getByRole('list', { name: 'Schema problems' })).getByText(
        'lang: Unknown field type',
      ),
    ).toBeTruthy();
    expect(server.callsTo('POST', `/workers/${worker2.id}/versions/`)[0]!.body).toMatchObject({
      revision_url: 'https://git.example.org/ocr/-/commit/1',
    });

    // The schema changed since: the server's word on the old one goes, the revision's stays.
    await user.type(dialog.getByLabelText('Settings schema (JSON)'), ' ');
    expect(dialog.queryByRole('list', { name: 'Schema problems' })).toBeNull();
    expect(revision.getAttribute('aria-invalid')).toBe('true');
  });
});

describe('offline', () => {
  it('New version and Make available wait for the network', async () => {
    const worker = makeWorker('Line recognizer');
    const version = makeVersion(worker, { state: 'created' });
    fakeWorkersServer({ workers: [worker], versions: [version] });
    const page = renderWorkers(`/process/workers/${worker.id}`);
    const user = userEvent.setup();
    const newVersion = await screen.findByRole('button', { name: 'New version' });
    connectivity.store.set({ online: false, checkedAt: null });
    await waitFor(() => expect(newVersion.getAttribute('aria-disabled')).toBe('true'));
    expect(newVersion.getAttribute('title')).toBe('Needs the network');
    await user.click(newVersion);
    expect(screen.queryByRole('dialog')).toBeNull();
    page.unmount();

    renderWorkers(`/process/worker-version/${version.id}`);
    const available = await screen.findByRole('button', { name: 'Make available' });
    expect(available.getAttribute('aria-disabled')).toBe('true');
    await user.click(available);
    expect(version.state).toBe('created');
  });
});

describe('people who may not publish workers', () => {
  it('see no Create a worker, New version or Make available button', async () => {
    const worker = makeWorker('Line recognizer');
    const version = makeVersion(worker, { state: 'created' });
    fakeWorkersServer({ workers: [worker], versions: [version], user: plainUser });
    const { unmount } = renderWorkers('/process/workers/', plainUser);
    expect(await screen.findByRole('link', { name: 'Line recognizer' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Create a worker' })).toBeNull();
    unmount();

    const page = renderWorkers(`/process/workers/${worker.id}`, plainUser);
    expect(await screen.findByRole('table', { name: 'Versions' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'New version' })).toBeNull();
    page.unmount();

    renderWorkers(`/process/worker-version/${version.id}`, plainUser);
    expect(await screen.findByRole('button', { name: 'Run locally' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Make available' })).toBeNull();
  });

  it('a site admin sees them', async () => {
    const admin = { ...plainUser, is_admin: true };
    fakeWorkersServer({ user: admin });
    renderWorkers('/process/workers/', admin);
    expect(await screen.findByRole('button', { name: 'Create a worker' })).toBeTruthy();
  });
});
