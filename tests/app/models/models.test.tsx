// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import '../shell/domStubs';
import { describe, expect, it, vi } from 'vitest';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  apiError,
  fakeModelsServer,
  isolateEachTest,
  makeModel,
  makeWorker,
  renderModels,
} from './harness';
import { NEEDS_NETWORK } from '@/components/NeedsNetwork';
import { connectivity } from '@/offline/runtime';

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

const rows = () =>
  within(screen.getByRole('table'))
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[0]!.textContent);

describe('the models list', () => {
  it('lists the models, searches them by name through the address, and pages', async () => {
    const models = Array.from({ length: 23 }, (_, index) =>
      makeModel({ name: `Model ${String(index + 1).padStart(2, '0')}` }),
    );
    models.push(makeModel({ name: 'Print layout' }));
    const server = fakeModelsServer({ models });
    const { router } = renderModels('/models');

    await screen.findByRole('link', { name: 'Model 01' });
    expect(rows()).toHaveLength(20);
    expect(screen.getByText('Items 1 to 20 out of 24 models')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await screen.findByRole('link', { name: 'Print layout' });
    expect(router.state.location.search).toEqual({ page: 2 });
    expect(server.calls.at(-1)?.query.get('page')).toBe('2');

    await userEvent.type(screen.getByRole('searchbox', { name: 'Search by name' }), 'print');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(rows()).toEqual(['Print layout']));
    expect(router.state.location.search).toEqual({ name: 'print' });
    expect(server.callsTo('GET', '/models/').at(-1)?.query.get('name')).toBe('print');
  });

  it('shows archived models only with the Archived filter', async () => {
    const server = fakeModelsServer({
      models: [makeModel({ name: 'Current' }), makeModel({ name: 'Old', archived: true })],
    });
    const { router } = renderModels('/models');
    await screen.findByRole('link', { name: 'Current' });
    expect(server.callsTo('GET', '/models/')[0]!.query.get('archived')).toBe('false');
    expect(screen.queryByRole('link', { name: 'Old' })).toBeNull();

    await userEvent.click(screen.getByRole('checkbox', { name: 'Archived' }));
    await screen.findByRole('link', { name: 'Old' });
    expect(screen.queryByRole('link', { name: 'Current' })).toBeNull();
    expect(router.state.location.search).toEqual({ archived: true });
    expect(server.callsTo('GET', '/models/').at(-1)?.query.get('archived')).toBe('true');
  });

  it('filters by a compatible worker picked from the workers', async () => {
    const tesseract = makeWorker('Tesseract');
    const kraken = makeWorker('Kraken');
    const lines = makeModel({ name: 'Lines' });
    const words = makeModel({ name: 'Words' });
    const server = fakeModelsServer({
      models: [lines, words],
      workers: [tesseract, kraken],
      compatible: { [lines.id]: [kraken.id], [words.id]: [tesseract.id] },
    });
    const { router } = renderModels('/models');
    await screen.findByRole('link', { name: 'Lines' });

    await userEvent.type(screen.getByRole('searchbox', { name: 'Search workers' }), 'kra');
    const picker = screen.getByRole('combobox', { name: 'Compatible worker' });
    await waitFor(() =>
      expect(
        within(picker)
          .getAllByRole('option')
          .map((option) => option.textContent),
      ).toEqual(['Any worker', 'Kraken (kraken)']),
    );
    await userEvent.selectOptions(picker, 'Kraken (kraken)');
    await waitFor(() => expect(rows()).toEqual(['Lines']));
    expect(router.state.location.search).toEqual({ compatible_worker: kraken.id });
    expect(server.callsTo('GET', '/models/').at(-1)?.query.get('compatible_worker')).toBe(
      kraken.id,
    );
    expect(server.callsTo('GET', '/workers/').at(-1)?.query.get('name')).toBe('kra');
  });

  it('names the worker of a filter opened from its address', async () => {
    const kraken = makeWorker('Kraken');
    const others = Array.from({ length: 3 }, (_, index) => makeWorker(`Other ${index}`));
    const lines = makeModel({ name: 'Lines' });
    fakeModelsServer({
      models: [lines],
      workers: [...others, kraken],
      compatible: { [lines.id]: [kraken.id] },
    });
    renderModels(`/models?compatible_worker=${kraken.id}`);
    await screen.findByRole('link', { name: 'Lines' });
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search workers' }), 'other');
    const picker = screen.getByRole('combobox', { name: 'Compatible worker' }) as HTMLSelectElement;
    await waitFor(() => expect(picker.selectedOptions[0]!.textContent).toBe('Kraken (kraken)'));
    expect(within(picker).getAllByRole('option')).toHaveLength(5);
  });

  it('says why the list failed in the words of the spec', async () => {
    fakeModelsServer({
      overrides: {
        'GET /models/': () => apiError(500, [{ attr: null, detail: 'Database unavailable' }]),
      },
    });
    renderModels('/models');
    expect(
      await screen.findByText('An error occurred listing models: Database unavailable'),
    ).toBeTruthy();
    expect(screen.getByText('The models could not be loaded.')).toBeTruthy();
  });
});

describe('creating a model', () => {
  it('waits for a name, trims it, and opens the new model', async () => {
    const server = fakeModelsServer();
    const { router } = renderModels('/models');
    await screen.findByText('There are no models yet.');
    await userEvent.click(screen.getByRole('button', { name: 'Create a model' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Create a model' }));
    const create = dialog.getByRole('button', { name: 'Create' }) as HTMLButtonElement;
    expect(create.disabled).toBe(true);

    const name = dialog.getByRole('textbox', { name: /Name/ }) as HTMLInputElement;
    await userEvent.type(name, '   ');
    expect(create.disabled).toBe(true);
    expect(name.maxLength).toBe(100);
    await userEvent.type(name, 'Line detector  ');
    await userEvent.type(dialog.getByRole('textbox', { name: 'Description' }), 'Finds lines');
    expect(create.disabled).toBe(false);
    await userEvent.click(create);

    await screen.findByRole('heading', { name: 'Line detector', level: 1 });
    expect(server.callsTo('POST', '/models/')[0]!.body).toEqual({
      name: 'Line detector',
      description: 'Finds lines',
    });
    expect(router.state.location.pathname).toBe(`/model/${server.models[0]!.id}`);
  });

  it('waits for the network offline', async () => {
    const server = fakeModelsServer({ models: [makeModel({ name: 'Lines' })] });
    renderModels('/models');
    await screen.findByRole('link', { name: 'Lines' });
    connectivity.store.set({ online: false, checkedAt: null });
    const create = screen.getByRole('button', { name: 'Create a model' });
    await waitFor(() => expect(create.getAttribute('aria-disabled')).toBe('true'));
    expect(create.getAttribute('title')).toBe(NEEDS_NETWORK);
    await userEvent.click(create);
    expect(screen.queryByRole('dialog', { name: 'Create a model' })).toBeNull();
    expect(server.callsTo('POST', '/models/')).toEqual([]);
  });

  it('says why the server refused a name taken by a model the user cannot read', async () => {
    fakeModelsServer({
      overrides: {
        'POST /models/': () =>
          apiError(403, [
            {
              attr: null,
              detail: 'A model with this name exists and you cannot read it.',
              code: 'permission_denied',
            },
          ]),
      },
    });
    renderModels('/models');
    await userEvent.click(await screen.findByRole('button', { name: 'Create a model' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Create a model' }));
    await userEvent.type(dialog.getByRole('textbox', { name: /Name/ }), 'Secret');
    await userEvent.click(dialog.getByRole('button', { name: 'Create' }));
    expect(
      await dialog.findByText('A model with this name exists and you cannot read it.'),
    ).toBeTruthy();
    expect(dialog.queryByRole('link', { name: 'Open the existing model' })).toBeNull();
  });

  it('shows a name already taken under the field, with a link to that model', async () => {
    const taken = makeModel({ name: 'Taken' });
    const server = fakeModelsServer({ models: [taken] });
    renderModels('/models');
    await screen.findByRole('link', { name: 'Taken' });
    await userEvent.click(screen.getByRole('button', { name: 'Create a model' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Create a model' }));
    await userEvent.type(dialog.getByRole('textbox', { name: /Name/ }), 'Taken');
    await userEvent.click(dialog.getByRole('button', { name: 'Create' }));

    expect(await dialog.findByText('A model with this name already exists.')).toBeTruthy();
    const existing = dialog.getByRole('link', { name: 'Open the existing model' });
    expect(existing.getAttribute('href')).toBe(`/model/${taken.id}`);
    expect(server.models).toHaveLength(1);
  });
});
