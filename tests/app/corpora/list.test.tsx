// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CorpusListPage } from '@/features/corpora/CorpusListPage';
import { loadCorpusList } from '@/features/corpora/loaders';
import { apiError, fakeServer, makeCorpus, makeUser, renderPage, isolateEachTest } from './harness';
import type { User } from '@/api/types';

function renderList(user: User | null) {
  return renderPage({
    path: '/browse/',
    url: '/browse/',
    page: CorpusListPage,
    user,
    loader: (queryClient) => loadCorpusList(queryClient),
  });
}

const item = (name: string) => screen.getByRole('listitem', { name });

isolateEachTest();

describe('Projects page', () => {
  it('lists the projects with their badge, role and a link to browse them', async () => {
    const mine = makeCorpus({
      name: 'Letters',
      description: '## About\n\nCorrespondence of **the family**, 1850 to 1900.',
      public: true,
      role: 'contributor',
    });
    fakeServer({ corpora: [mine] });
    renderList(makeUser());

    expect(await screen.findByRole('heading', { name: 'Projects' })).toBeTruthy();
    const card = await screen.findByRole('listitem', { name: 'Letters' });
    expect(within(card).getByRole('link', { name: 'Letters' }).getAttribute('href')).toBe(
      `/browse/${mine.id}`,
    );
    expect(within(card).getByText('Public')).toBeTruthy();
    expect(within(card).getByText('Contributor')).toBeTruthy();
    // The first paragraph of prose, without its Markdown marks.
    expect(within(card).getByText('Correspondence of the family, 1850 to 1900.')).toBeTruthy();
    expect(within(card).queryByText(/About/)).toBeNull();
  });

  it('offers Edit and Delete only on projects the caller administers', async () => {
    const administered = makeCorpus({ name: 'Mine', role: 'admin' });
    const contributed = makeCorpus({ name: 'Shared', role: 'contributor' });
    const read = makeCorpus({ name: 'Read only', role: 'guest', public: true });
    fakeServer({ corpora: [administered, contributed, read] });
    renderList(makeUser());

    await screen.findByRole('listitem', { name: 'Mine' });
    expect(within(item('Mine')).getByRole('link', { name: 'Edit Mine' }).getAttribute('href')).toBe(
      `/corpus/${administered.id}`,
    );
    expect(within(item('Mine')).getByRole('button', { name: 'Delete Mine' })).toBeTruthy();
    for (const name of ['Shared', 'Read only']) {
      expect(within(item(name)).queryByRole('link', { name: `Edit ${name}` })).toBeNull();
      expect(within(item(name)).queryByRole('button', { name: `Delete ${name}` })).toBeNull();
    }
  });

  it('shows "Create a project" to verified users and site admins only', async () => {
    fakeServer({ corpora: [makeCorpus({ name: 'Letters' })] });
    renderList(makeUser({ verified_email: true }));
    await screen.findByRole('listitem', { name: 'Letters' });
    expect(screen.getByRole('link', { name: 'Create a project' }).getAttribute('href')).toBe(
      '/corpus/new',
    );
    cleanup();

    renderList(makeUser({ verified_email: false, is_admin: true }));
    await screen.findByRole('listitem', { name: 'Letters' });
    expect(screen.getByRole('link', { name: 'Create a project' })).toBeTruthy();
    cleanup();

    renderList(makeUser({ verified_email: false }));
    await screen.findByRole('listitem', { name: 'Letters' });
    expect(screen.queryByRole('link', { name: 'Create a project' })).toBeNull();
  });

  it('tells anonymous visitors they see public projects and may log in for theirs', async () => {
    fakeServer({ corpora: [makeCorpus({ name: 'Open data', public: true, role: 'guest' })] });
    renderList(null);

    const card = await screen.findByRole('listitem', { name: 'Open data' });
    expect(screen.getByText(/public projects only/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Log in' }).getAttribute('href')).toMatch(
      /^\/user\/login\?next=/,
    );
    expect(screen.queryByRole('link', { name: 'Create a project' })).toBeNull();
    expect(within(card).queryByText(/Your role/)).toBeNull();
  });

  it('shows an empty state when there is no project', async () => {
    fakeServer({ corpora: [] });
    renderList(null);
    expect(await screen.findByText('No projects to show.')).toBeTruthy();
    expect(screen.getByText('Log in to see the projects you are a member of.')).toBeTruthy();
  });

  it('filters the projects by name', async () => {
    fakeServer({
      corpora: [makeCorpus({ name: 'Parish registers' }), makeCorpus({ name: 'Letters' })],
    });
    renderList(makeUser());
    await screen.findByRole('listitem', { name: 'Letters' });

    await userEvent.type(screen.getByRole('searchbox', { name: 'Filter by name' }), 'PARISH');
    expect(screen.getByRole('listitem', { name: 'Parish registers' })).toBeTruthy();
    expect(screen.queryByRole('listitem', { name: 'Letters' })).toBeNull();

    await userEvent.type(screen.getByRole('searchbox', { name: 'Filter by name' }), 'x');
    expect(screen.getByText('No project matches “PARISHx”.')).toBeTruthy();
  });

  it('deletes a project after confirmation and removes it from the list', async () => {
    const doomed = makeCorpus({ name: 'Old scans' });
    const kept = makeCorpus({ name: 'Letters' });
    const server = fakeServer({ corpora: [doomed, kept] });
    renderList(makeUser());
    await screen.findByRole('listitem', { name: 'Old scans' });

    await userEvent.click(screen.getByRole('button', { name: 'Delete Old scans' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete project' });
    expect(within(dialog).getByText('Old scans')).toBeTruthy();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.callsTo('DELETE', `/corpus/${doomed.id}/`)).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Delete Old scans' }));
    await userEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }),
    );

    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Old scans' })).toBeNull());
    expect(server.callsTo('DELETE', `/corpus/${doomed.id}/`)).toHaveLength(1);
    expect(screen.getByRole('listitem', { name: 'Letters' })).toBeTruthy();
    expect(await screen.findByText('Project "Old scans" has been deleted.')).toBeTruthy();
  });

  it('reports a refused deletion and keeps the project', async () => {
    const corpus = makeCorpus({ name: 'Letters' });
    fakeServer({
      corpora: [corpus],
      overrides: {
        [`DELETE /corpus/${corpus.id}/`]: () =>
          apiError(403, [
            { attr: null, detail: 'You do not have permission to perform this action.' },
          ]),
      },
    });
    renderList(makeUser());
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Letters' }));
    await userEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }),
    );

    expect((await screen.findByRole('alert')).textContent).toContain(
      'You do not have permission to perform this action.',
    );
    expect(screen.getByRole('listitem', { name: 'Letters' })).toBeTruthy();
  });

  it('reports a failed load with an error notification', async () => {
    fakeServer({
      overrides: {
        'GET /corpus/': () => apiError(500, [{ attr: null, detail: 'The database is down.' }]),
      },
    });
    renderList(makeUser());
    expect((await screen.findByRole('alert')).textContent).toContain('The database is down.');
    expect(screen.getByText('The projects could not be loaded.')).toBeTruthy();
    // The loader's failure is left to the page, which reports it once.
    expect(screen.getAllByRole('alert')).toHaveLength(1);
  });
});
