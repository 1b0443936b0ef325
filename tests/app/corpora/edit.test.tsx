// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { EditCorpusPage } from '@/features/corpora/EditCorpusPage';
import { loadCorpusSettings } from '@/features/corpora/loaders';
import type { Corpus, UserMembership as Membership } from '@/api/types';
import {
  fakeServer,
  isolateEachTest,
  makeCorpus,
  makeMembership,
  makeUser,
  renderPage,
  uuid,
} from './harness';

const me = makeUser({ display_name: 'Ada Lovelace', email: 'ada@example.org' });

function renderEdit(corpusId: string) {
  return renderPage({
    path: '/corpus/$corpusId',
    url: `/corpus/${corpusId}`,
    page: () => <EditCorpusPage corpusId={corpusId} />,
    user: me,
    loader: (queryClient, params) => loadCorpusSettings(queryClient, params.corpusId!),
  });
}

function setup(corpus: Corpus, members: Membership[] = [makeMembership(me, 100)]) {
  return fakeServer({ corpora: [corpus], members: { [corpus.id]: members } });
}

isolateEachTest();

describe('Project settings', () => {
  it('tells a member without the admin right that they cannot edit the project', async () => {
    const corpus = makeCorpus({ name: 'Letters', role: 'contributor' });
    const server = setup(corpus);
    renderEdit(corpus.id);

    expect((await screen.findByRole('alert')).textContent).toBe(
      'You must have an admin access to this project.',
    );
    expect(screen.queryByRole('textbox', { name: /Name/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete this project' })).toBeNull();
    expect(server.calls.some((call) => call.path.endsWith('/memberships/'))).toBe(false);
  });

  it('shows the project in the form and saves the changes', async () => {
    const corpus = makeCorpus({
      name: 'Letters',
      description: 'Old text',
      top_level_type: 'folder',
    });
    const server = setup(corpus);
    renderEdit(corpus.id);

    const name = await screen.findByRole('textbox', { name: /Name/ });
    expect((name as HTMLInputElement).value).toBe('Letters');
    const topLevel = screen.getByRole('combobox', { name: 'Top-level type' });
    expect((topLevel as HTMLSelectElement).value).toBe('folder');
    expect(
      within(topLevel)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['None', 'Folder', 'Volume', 'Page']);

    await userEvent.clear(name);
    await userEvent.type(name, 'Family letters');
    await userEvent.selectOptions(topLevel, 'Volume');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Indexable' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect((await screen.findByRole('status')).textContent).toContain(
      'Project "Family letters" has been updated.',
    );
    expect(server.callsTo('PATCH', `/corpus/${corpus.id}/`)[0]?.body).toEqual({
      name: 'Family letters',
      description: 'Old text',
      public: false,
      indexable: true,
      top_level_type: 'volume',
    });
    expect(screen.getByRole('link', { name: 'Family letters' })).toBeTruthy();
  });

  it('sends no top-level type when None is chosen', async () => {
    const corpus = makeCorpus({ name: 'Letters', top_level_type: 'folder' });
    const server = setup(corpus);
    renderEdit(corpus.id);
    await userEvent.selectOptions(
      await screen.findByRole('combobox', { name: 'Top-level type' }),
      'None',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.callsTo('PATCH', `/corpus/${corpus.id}/`)).toHaveLength(1));
    expect(server.callsTo('PATCH', `/corpus/${corpus.id}/`)[0]?.body).toMatchObject({
      top_level_type: null,
    });
  });

  it('deletes the project after confirmation and goes back to the projects', async () => {
    const corpus = makeCorpus({ name: 'Letters' });
    const server = setup(corpus);
    renderEdit(corpus.id);

    await userEvent.click(await screen.findByRole('button', { name: 'Delete this project' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete project' });
    expect(within(dialog).getByText('Letters')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect((await screen.findByTestId('elsewhere')).textContent).toBe('Now at /browse/');
    expect(server.callsTo('DELETE', `/corpus/${corpus.id}/`)).toHaveLength(1);
    expect(screen.getByRole('status').textContent).toContain('Project "Letters" has been deleted.');
    // Leaving the page must not fetch the deleted project again.
    const deletion = server.calls.findIndex((call) => call.method === 'DELETE');
    expect(
      server.calls.slice(deletion).filter((call) => call.path === `/corpus/${corpus.id}/`),
    ).toHaveLength(1);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows an error notification and the not-found page for an unknown project', async () => {
    fakeServer({ corpora: [] });
    renderEdit(uuid());

    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('Not found.');
  });
});
