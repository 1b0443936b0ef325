// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CreateCorpusPage } from '@/features/corpora/CreateCorpusPage';
import { apiError, fakeServer, makeUser, renderPage, isolateEachTest } from './harness';

function renderCreate() {
  return renderPage({
    path: '/corpus/new',
    url: '/corpus/new',
    page: CreateCorpusPage,
    user: makeUser(),
  });
}

isolateEachTest();

describe('Create a project', () => {
  it('keeps Create disabled until the name holds more than blanks', async () => {
    const server = fakeServer();
    renderCreate();
    const create = await screen.findByRole('button', { name: 'Create' });
    expect((create as HTMLButtonElement).disabled).toBe(true);

    const name = screen.getByRole('textbox', { name: /Name/ });
    await userEvent.type(name, '   ');
    expect((create as HTMLButtonElement).disabled).toBe(true);
    await userEvent.type(name, 'Letters');
    expect((create as HTMLButtonElement).disabled).toBe(false);
    expect(server.callsTo('POST', '/corpus/')).toHaveLength(0);
  });

  it('limits the name to 100 characters', async () => {
    fakeServer();
    renderCreate();
    const name = await screen.findByRole('textbox', { name: /Name/ });
    await userEvent.click(name);
    await userEvent.paste('x'.repeat(120));
    expect((name as HTMLInputElement).value).toHaveLength(100);
  });

  it('shows the server field errors next to their fields', async () => {
    const server = fakeServer({
      overrides: {
        'POST /corpus/': () =>
          apiError(400, [
            { attr: 'name', detail: 'A project with this name already exists.' },
            { attr: 'description', detail: 'Ensure this field has no more than 5000 characters.' },
          ]),
      },
    });
    renderCreate();
    const name = await screen.findByRole('textbox', { name: /Name/ });
    await userEvent.type(name, 'Letters');
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));

    await waitFor(() => expect(name.getAttribute('aria-invalid')).toBe('true'));
    expect(name.getAttribute('aria-describedby')).toBeTruthy();
    const nameError = document.getElementById(name.getAttribute('aria-describedby')!);
    expect(nameError?.textContent).toBe('A project with this name already exists.');
    const description = screen.getByRole('textbox', { name: 'Description' });
    expect(description.getAttribute('aria-invalid')).toBe('true');
    expect(
      within(description.parentElement!).getByText(
        'Ensure this field has no more than 5000 characters.',
      ),
    ).toBeTruthy();
    // The failure is also notified, with the joined message.
    expect((await screen.findByRole('alert')).textContent).toContain(
      'A project with this name already exists. - Ensure this field',
    );
    expect(server.callsTo('POST', '/corpus/')).toHaveLength(1);
  });

  it('creates the project, then opens it with a success notification', async () => {
    const server = fakeServer();
    renderCreate();
    await userEvent.type(await screen.findByRole('textbox', { name: /Name/ }), '  Letters  ');
    await userEvent.type(screen.getByRole('textbox', { name: 'Description' }), 'Family letters');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Public' }));
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));

    const created = server.corpora[0];
    expect((await screen.findByTestId('elsewhere')).textContent).toBe(
      `Now at /browse/${created?.id}`,
    );
    expect(server.callsTo('POST', '/corpus/')[0]?.body).toEqual({
      name: 'Letters',
      description: 'Family letters',
      public: true,
    });
    expect(screen.getByRole('status').textContent).toContain('Project "Letters" has been created.');
  });
});
