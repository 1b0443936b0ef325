// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CorpusExport } from '@/api/exports';
import type { Corpus, Features, User } from '@/api/types';
import { ProjectExportsModal } from '@/features/exports/ProjectExportsModal';
import {
  apiError,
  exportServer,
  isolateEachTest,
  makeCorpus,
  makeExport,
  makeUser,
  renderModal,
  type Handler,
} from './harness';

isolateEachTest();

function open(
  corpus: Corpus,
  exports: CorpusExport[],
  options: {
    user?: User | null;
    features?: Partial<Features>;
    overrides?: Record<string, Handler>;
  } = {},
) {
  const { user = makeUser(), features = {}, overrides = {} } = options;
  const server = exportServer(corpus, exports, overrides);
  renderModal(
    (close) => <ProjectExportsModal corpus={corpus} onClose={close} pollMs={20} />,
    user,
    features,
  );
  return server;
}

async function dialog() {
  return screen.findByRole('dialog', { name: 'Project exports' });
}

/** The table's rows below its head, once the list is in. */
async function rows() {
  const table = await within(await dialog()).findByRole('table');
  return within(table).getAllByRole('row').slice(1);
}

function headers() {
  return within(screen.getByRole('table'))
    .getAllByRole('columnheader')
    .map((header) => header.textContent);
}

describe('Project exports modal', () => {
  it("says 'No exports to display.' when the project has none", async () => {
    const corpus = makeCorpus();
    open(corpus, []);
    expect(await within(await dialog()).findByText('No exports to display.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('lists the exports ten a page, with their date, state and who started them', async () => {
    const corpus = makeCorpus();
    const exports = Array.from({ length: 12 }, (_, index) =>
      makeExport(corpus, 'done', {
        user: { id: `u${index}`, email: `u${index}@example.org`, display_name: `User ${index}` },
      }),
    );
    const server = open(corpus, exports);
    const first = await rows();
    expect(first).toHaveLength(10);
    // Newest first: the last one made leads.
    expect(within(first[0]!).getByText('User 11')).toBeTruthy();
    expect(within(first[0]!).getByText('Done')).toBeTruthy();
    expect(headers()).toEqual(['Date', 'State', 'User', 'Actions']);
    expect(screen.getByText('Items 1 to 10 out of 12 exports')).toBeTruthy();
    expect(server.calls.at(-1)?.query.get('page_size')).toBe('10');

    await userEvent.click(screen.getByRole('button', { name: 'Go to page 2' }));
    await waitFor(() => expect(screen.getByText('Items 11 to 12 out of 12 exports')).toBeTruthy());
    const second = await rows();
    expect(second.map((row) => within(row).getAllByRole('cell')[2]!.textContent)).toEqual([
      'User 1',
      'User 0',
    ]);
    expect(
      server.calls.some((call) => call.path.endsWith('/export/') && call.query.get('page') === '2'),
    ).toBe(true);
  });

  it('offers the download only once done, and the delete only when done or running', async () => {
    const corpus = makeCorpus();
    const done = makeExport(corpus, 'done', { user: { id: 'a', email: '', display_name: 'Dora' } });
    const running = makeExport(corpus, 'running', {
      user: { id: 'b', email: '', display_name: 'Rita' },
    });
    const created = makeExport(corpus, 'created', {
      user: { id: 'c', email: '', display_name: 'Cleo' },
    });
    const failed = makeExport(corpus, 'failed', {
      user: { id: 'd', email: '', display_name: 'Fay' },
    });
    open(corpus, [done, running, created, failed]);
    await rows();
    const actions = (name: string) => {
      const row = screen.getByRole('cell', { name }).closest('tr')!;
      return within(row)
        .queryAllByRole('link')
        .concat(within(row).queryAllByRole('button'))
        .map((control) => control.textContent);
    };
    expect(actions('Dora')).toEqual(['Download', 'Delete']);
    expect(actions('Rita')).toEqual(['Delete']);
    expect(actions('Cleo')).toEqual([]);
    expect(actions('Fay')).toEqual([]);
    const download = screen.getByRole('link', { name: 'Download' });
    expect(download.getAttribute('href')).toBe(`/api/v1/export/${done.id}/`);
  });

  it('deletes an export only once the confirmation says so, then lists the rest', async () => {
    const corpus = makeCorpus();
    const done = makeExport(corpus, 'done');
    const server = open(corpus, [done]);
    await rows();
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete export' });
    expect(within(confirm).getByText(/Are you sure you want to delete/)).toBeTruthy();
    // Cancel sends nothing.
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Delete export' })).toBeNull());
    expect(server.callsTo('DELETE', `/export/${done.id}/`)).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const again = await screen.findByRole('dialog', { name: 'Delete export' });
    await userEvent.click(within(again).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('No exports to display.')).toBeTruthy();
    expect(server.callsTo('DELETE', `/export/${done.id}/`)).toHaveLength(1);
  });

  it("leaves a deletion to the project's admins and to who started the export", async () => {
    const corpus = makeCorpus({ rights: ['read', 'write'] });
    const me = makeUser({ display_name: 'Ada Lovelace' });
    const mine = makeExport(corpus, 'done', {
      user: { id: me.id, email: me.email, display_name: 'Ada Lovelace' },
    });
    const theirs = makeExport(corpus, 'done', {
      user: { id: 'someone', email: 'grace@example.org', display_name: 'Grace Hopper' },
    });
    const server = open(corpus, [mine, theirs], { user: me });
    await rows();
    const deleteOf = (name: string) =>
      within(screen.getByRole('cell', { name }).closest('tr')!).getByRole('button', {
        name: 'Delete',
      });
    expect(deleteOf('Ada Lovelace').getAttribute('aria-disabled')).toBeNull();
    const blocked = deleteOf('Grace Hopper');
    expect(blocked.getAttribute('aria-disabled')).toBe('true');
    expect(blocked.getAttribute('title')).toBe('You must have an admin access to this project');
    await userEvent.click(blocked);
    expect(screen.queryByRole('dialog', { name: 'Delete export' })).toBeNull();
    expect(server.callsTo('DELETE', `/export/${theirs.id}/`)).toHaveLength(0);
  });

  it("tells the server's reason when a deletion is refused", async () => {
    const corpus = makeCorpus();
    const done = makeExport(corpus, 'done');
    open(corpus, [done], {
      overrides: {
        [`DELETE /export/${done.id}/`]: () =>
          apiError(403, [
            { attr: null, detail: 'You do not have permission to perform this action.' },
          ]),
      },
    });
    await rows();
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete export' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(
      await screen.findByText(
        'An error occurred while deleting the export: You do not have permission to perform this action.',
      ),
    ).toBeTruthy();
    // The dialog stays for another try; once closed, the export is still listed.
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(await rows()).toHaveLength(1);
  });

  it('shows the Source column and choice only to verified users of the enterprise edition', async () => {
    const corpus = makeCorpus();
    const done = makeExport(corpus, 'done');
    const server = open(corpus, [done], { features: { enterprise: true } });
    await rows();
    expect(headers()).toEqual(['Date', 'State', 'User', 'Source', 'Actions']);
    const source = await screen.findByRole('combobox', { name: 'Source' });
    await waitFor(() => expect(within(source).getAllByRole('option')).toHaveLength(1));
    await userEvent.click(screen.getByRole('button', { name: 'Start export' }));
    await waitFor(() =>
      expect(server.callsTo('POST', `/corpus/${corpus.id}/export/`)[0]?.body).toEqual({
        source: 'default',
      }),
    );
  });

  it.each([
    ['an unverified user', { enterprise: true }, { verified_email: false }],
    ['the community edition', { enterprise: false }, {}],
  ])('hides the Source column and choice for %s', async (_, features, user) => {
    const corpus = makeCorpus();
    const server = open(corpus, [makeExport(corpus, 'done')], {
      features,
      user: makeUser(user),
    });
    await rows();
    expect(headers()).toEqual(['Date', 'State', 'User', 'Actions']);
    expect(screen.queryByRole('combobox', { name: 'Source' })).toBeNull();
    expect(server.callsTo('GET', '/export-sources/')).toHaveLength(0);
  });

  it('leaves the start to contributors, saying so to a guest', async () => {
    const corpus = makeCorpus({ rights: ['read'] });
    const server = open(corpus, []);
    await screen.findByText('No exports to display.');
    const start = screen.getByRole('button', { name: 'Start export' });
    expect(start.getAttribute('aria-disabled')).toBe('true');
    expect(start.getAttribute('title')).toBe(
      'Contributor access is required to start a project export.',
    );
    await userEvent.click(start);
    expect(server.callsTo('POST', `/corpus/${corpus.id}/export/`)).toHaveLength(0);
  });

  it('starts an export and lists it at once', async () => {
    const corpus = makeCorpus();
    const server = open(corpus, []);
    await screen.findByText('No exports to display.');
    await userEvent.click(screen.getByRole('button', { name: 'Start export' }));
    const [row] = await rows();
    expect(within(row!).getByText('Created')).toBeTruthy();
    expect(server.callsTo('POST', `/corpus/${corpus.id}/export/`)[0]?.body).toEqual({});
  });

  it('reads the list again while an export is being made, and stops once it is done', async () => {
    const corpus = makeCorpus();
    const running = makeExport(corpus, 'running');
    let reads = 0;
    const server = open(corpus, [running], {
      overrides: {
        [`GET /corpus/${corpus.id}/export/`]: () => {
          reads += 1;
          if (reads >= 3) running.state = 'done';
          return null;
        },
      },
    });
    const [row] = await rows();
    expect(within(row!).getByText('Running')).toBeTruthy();
    expect(await screen.findByRole('link', { name: 'Download' })).toBeTruthy();
    const settled = reads;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(reads).toBe(settled);
    expect(server.callsTo('GET', `/corpus/${corpus.id}/export/`)).toHaveLength(reads);
  });

  it("shows the server's refusal of a start", async () => {
    const corpus = makeCorpus();
    open(corpus, [makeExport(corpus, 'running')], {
      overrides: {
        [`POST /corpus/${corpus.id}/export/`]: () =>
          apiError(400, [{ attr: null, detail: 'An export is already running for this project.' }]),
      },
    });
    await rows();
    await userEvent.click(screen.getByRole('button', { name: 'Start export' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'An export is already running for this project.',
    );
  });
});
