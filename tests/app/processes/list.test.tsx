// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import '../shell/domStubs';
import { describe, expect, it } from 'vitest';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  fakeProcessesServer,
  isolateEachTest,
  makeCorpus,
  makeProcess,
  other,
  renderProcesses,
} from './harness';

configure({ asyncUtilTimeout: 5_000 });

isolateEachTest();

const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3600 * 1000).toISOString();

describe('the processes list', () => {
  it('opens on my started processes, with their mode, state badge, project and times', async () => {
    const corpus = makeCorpus();
    const mine = makeProcess(corpus, {
      name: 'OCR run',
      state: 'running',
      started: hoursAgo(2),
      created: hoursAgo(3),
    });
    const unstarted = makeProcess(corpus, { name: 'Draft', state: 'unscheduled' });
    const theirs = makeProcess(corpus, {
      name: 'Their run',
      state: 'failed',
      started: hoursAgo(1),
      creator: other,
    });
    const server = fakeProcessesServer({ processes: [mine, unstarted, theirs], corpora: [corpus] });
    renderProcesses('/process/');

    const table = within(await screen.findByRole('table', { name: 'Processes' }));
    expect(screen.getByRole('heading', { level: 1, name: 'Processes' })).toBeTruthy();
    const first = server.callsTo('GET', '/process/')[0]!;
    expect(first.query.get('created')).toBe('true');
    expect(first.query.get('started')).toBe('true');
    expect(table.getByRole('link', { name: 'OCR run' }).getAttribute('href')).toBe(
      `/process/${mine.id}`,
    );
    expect(table.queryByText('Draft')).toBeNull();
    expect(table.queryByText('Their run')).toBeNull();
    const row = table.getByRole('row', { name: /OCR run/ });
    const badge = row.querySelector('[data-state]')!;
    expect(badge.textContent).toBe('Running');
    expect(badge.className).toContain('bg-sky-100');
    expect(within(row).getByText('Workers')).toBeTruthy();
    expect(within(row).getByRole('link', { name: 'Letters' }).getAttribute('href')).toBe(
      `/browse/${corpus.id}`,
    );
    expect(within(row).getByText('Grace Hopper')).toBeTruthy();
    expect(within(row).getByText('3 hours ago')).toBeTruthy();
    expect(within(row).getByText('2 hours ago')).toBeTruthy();
  });

  it('turns the toggles off, filters by name, mode and state, and writes them in the address', async () => {
    const corpus = makeCorpus();
    const ocr = makeProcess(corpus, { name: 'OCR run', state: 'completed', started: hoursAgo(1) });
    const files = makeProcess(corpus, { name: 'Import files', mode: 'files', state: 'failed' });
    const theirs = makeProcess(corpus, { name: 'Their OCR', creator: other, state: 'error' });
    const server = fakeProcessesServer({ processes: [ocr, files, theirs], corpora: [corpus] });
    const { router } = renderProcesses('/process/');
    const user = userEvent.setup();
    await screen.findByRole('link', { name: 'OCR run' });

    await user.click(screen.getByRole('checkbox', { name: 'Only started processes' }));
    await user.click(screen.getByRole('checkbox', { name: 'Only my processes' }));
    expect(await screen.findByRole('link', { name: 'Their OCR' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Import files' })).toBeTruthy();
    let last = server.calls.at(-1)!;
    expect(last.query.get('created')).toBeNull();
    expect(last.query.get('started')).toBeNull();
    expect(router.state.location.search).toEqual({ created: false, started: false });

    await user.type(screen.getByLabelText('Search by name'), 'ocr');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Import files' })).toBeNull());
    expect(server.calls.at(-1)!.query.get('name')).toBe('ocr');

    await user.selectOptions(screen.getByLabelText('State'), 'error');
    await waitFor(() => expect(screen.queryByRole('link', { name: 'OCR run' })).toBeNull());
    expect(screen.getByRole('link', { name: 'Their OCR' })).toBeTruthy();
    last = server.calls.at(-1)!;
    expect(last.query.get('state')).toBe('error');
    expect(last.query.get('name')).toBe('ocr');

    await user.selectOptions(screen.getByLabelText('Mode'), 'files');
    expect(await screen.findByText('No process matches these filters.')).toBeTruthy();
    expect(server.calls.at(-1)!.query.get('mode')).toBe('files');
    expect(router.state.location.search).toMatchObject({ mode: 'files', state: 'error' });
  });

  it('reads its filters from the address and pages through the processes', async () => {
    const corpus = makeCorpus();
    const processes = Array.from({ length: 25 }, (_, index) =>
      makeProcess(corpus, {
        name: `Run ${String(index + 1).padStart(2, '0')}`,
        state: 'completed',
        mode: 'export',
        started: hoursAgo(1),
      }),
    );
    const server = fakeProcessesServer({ processes, corpora: [corpus] });
    renderProcesses('/process/?mode=export&state=completed&created=false');
    const user = userEvent.setup();
    expect(await screen.findByText('Items 1 to 20 out of 25 processes')).toBeTruthy();
    expect((screen.getByLabelText('Mode') as HTMLSelectElement).value).toBe('export');
    expect(
      (screen.getByRole('checkbox', { name: 'Only my processes' }) as HTMLInputElement).checked,
    ).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByRole('link', { name: 'Run 25' })).toBeTruthy();
    const last = server.calls.at(-1)!;
    expect(last.query.get('page')).toBe('2');
    expect(last.query.get('mode')).toBe('export');

    await user.selectOptions(screen.getByLabelText('Per page'), '50');
    expect(await screen.findByText('Items 1 to 25 out of 25 processes')).toBeTruthy();
    expect(server.calls.at(-1)!.query.get('page_size')).toBe('50');
    expect(server.calls.at(-1)!.query.get('page')).toBe('1');
  });

  it('says when there are no processes at all', async () => {
    fakeProcessesServer({});
    renderProcesses('/process/?created=false&started=false');
    expect(await screen.findByText('There are no processes yet.')).toBeTruthy();
  });
});
