// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import '../shell/domStubs';
import { describe, expect, it, vi } from 'vitest';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  annotator,
  fakeSecretsServer,
  isolateEachTest,
  makeSecret,
  renderSecrets,
} from './harness';
import type { Call } from '../support/harness';

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

const names = () =>
  within(screen.getByRole('table'))
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[0]!.textContent);

/** The calls to the secrets API, not the shell's own (the user's jobs and the like). */
const secretCalls = (server: { calls: Call[] }) =>
  server.calls.filter((call) => call.path.startsWith('/secret'));

describe('the secrets list', () => {
  it('lists names only, in pages, and links each to its page', async () => {
    const secrets = Array.from({ length: 23 }, (_, index) =>
      makeSecret(`ocr/key-${String(index + 1).padStart(2, '0')}`, `hunter-${index}`),
    );
    const server = fakeSecretsServer(secrets);
    const { router } = renderSecrets('/secret/');

    await screen.findByRole('link', { name: 'ocr/key-01' });
    expect(names()).toHaveLength(20);
    expect(screen.getByText('Items 1 to 20 out of 23 secrets')).toBeTruthy();
    expect(document.body.textContent).not.toContain('hunter-');
    expect(screen.getByRole('link', { name: 'ocr/key-01' }).getAttribute('href')).toBe(
      '/secret/ocr/key-01',
    );

    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(names()).toEqual(['ocr/key-21', 'ocr/key-22', 'ocr/key-23']));
    expect(router.state.location.search).toEqual({ page: 2 });
    expect(server.callsTo('GET', '/secrets/').at(-1)?.query.get('page')).toBe('2');
    // Nothing but the names was asked for.
    expect(secretCalls(server).every((call) => call.path === '/secrets/')).toBe(true);
  });

  it('says when there are none', async () => {
    fakeSecretsServer([]);
    renderSecrets('/secret/');
    await screen.findByText('There are no secrets yet.');
  });

  it('adds a secret, checking its name first and showing what the server refuses', async () => {
    const server = fakeSecretsServer([makeSecret('ocr/service/key')]);
    renderSecrets('/secret/');
    await screen.findByRole('link', { name: 'ocr/service/key' });

    await userEvent.click(screen.getByRole('button', { name: 'Add a secret' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a secret' });
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    const add = within(dialog).getByRole('button', { name: 'Add' });
    await userEvent.type(name, 'ocr//key');
    expect(
      within(dialog).getByText(
        'Secret names are segments joined with "/": none of them may be empty.',
      ),
    ).toBeTruthy();
    await userEvent.click(add);
    expect(server.callsTo('POST', '/secrets/')).toHaveLength(0);

    await userEvent.clear(name);
    await userEvent.type(name, 'ocr/service/key');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Value' }), 's3cr3t');
    await userEvent.click(add);
    await within(dialog).findByText('A secret with this name already exists.');

    await userEvent.clear(name);
    await userEvent.type(name, 'htr/api/token');
    await userEvent.click(add);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.callsTo('POST', '/secrets/').at(-1)?.body).toEqual({
      name: 'htr/api/token',
      content: 's3cr3t',
    });
    await screen.findByRole('link', { name: 'htr/api/token' });
    expect(names()).toEqual(['htr/api/token', 'ocr/service/key']);
    await screen.findByText('The secret htr/api/token was added.');
  });

  it('deletes a secret once confirmed', async () => {
    const server = fakeSecretsServer([makeSecret('ocr/service/key'), makeSecret('zz/other')]);
    renderSecrets('/secret/');
    await screen.findByRole('link', { name: 'zz/other' });

    await userEvent.click(screen.getByRole('button', { name: 'Delete zz/other' }));
    let dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Are you sure you want to delete the secret zz/other?');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.callsTo('DELETE', '/secret/zz/other')).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Delete zz/other' }));
    dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(names()).toEqual(['ocr/service/key']));
    expect(server.callsTo('DELETE', '/secret/zz/other')).toHaveLength(1);
  });

  it("tells someone who is not a site admin the API's refusal", async () => {
    fakeSecretsServer([makeSecret('ocr/service/key')], false);
    renderSecrets('/secret/', { user: annotator });
    const refusal = await screen.findByRole('alert');
    expect(refusal.textContent).toBe(
      'The secrets could not be loaded: Only site administrators can do this.',
    );
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('does not exist without the enterprise edition', async () => {
    const server = fakeSecretsServer([makeSecret('ocr/service/key')]);
    renderSecrets('/secret/', { enterprise: false });
    await screen.findByRole('heading', { name: 'Page not found' });
    renderSecrets('/secret/ocr/service/key', { enterprise: false });
    expect(secretCalls(server)).toHaveLength(0);
  });
});

describe("a secret's page", () => {
  it('keeps the value hidden until Reveal is pressed, and hides it again', async () => {
    const server = fakeSecretsServer([makeSecret('ocr/service/key', 'sk-live-123')]);
    renderSecrets('/secret/ocr/service/key');

    await screen.findByRole('heading', { name: 'ocr/service/key' });
    expect(document.body.textContent).not.toContain('sk-live-123');
    expect(secretCalls(server)).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Reveal' }));
    expect((await screen.findByLabelText('Value')).textContent).toBe('sk-live-123');
    expect(server.callsTo('GET', '/secret/ocr/service/key')).toHaveLength(1);

    await userEvent.click(screen.getByRole('button', { name: 'Hide' }));
    expect(document.body.textContent).not.toContain('sk-live-123');
    expect(screen.getByRole('button', { name: 'Reveal' })).toBeTruthy();
  });

  it('says why a value cannot be revealed', async () => {
    fakeSecretsServer([]);
    renderSecrets('/secret/ocr/gone');
    await userEvent.click(await screen.findByRole('button', { name: 'Reveal' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The value could not be revealed: Not found.',
    );
  });

  it('deletes the secret once confirmed and goes back to the list', async () => {
    const server = fakeSecretsServer([makeSecret('ocr/service/key'), makeSecret('zz/other')]);
    const { router } = renderSecrets('/secret/ocr/service/key');
    await userEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/secret/'));
    expect(server.stored.map((secret) => secret.name)).toEqual(['zz/other']);
    await screen.findByRole('link', { name: 'zz/other' });
  });
});
