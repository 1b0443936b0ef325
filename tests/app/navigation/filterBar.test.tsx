// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  apiError,
  fakeServer,
  isolateEachTest,
  makeCorpus,
  makeElement,
  renderNavigation,
  uuid,
} from './harness';

isolateEachTest();

const corpus = makeCorpus({ top_level_type: 'volume' });
const elements = [
  makeElement({ type: 'volume', name: 'Register 1' }),
  makeElement({ type: 'page', name: 'Folio 1' }),
  makeElement({ type: 'page', name: 'Folio 2' }),
];

async function addFilter(filter: string, value: string, operator?: string) {
  await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Filter' }), filter);
  if (operator) {
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Operator' }), operator);
  }
  const input = screen.getByLabelText('Value');
  await userEvent.clear(input);
  await userEvent.type(input, value);
  await userEvent.click(screen.getByRole('button', { name: 'Add filter' }));
}

function chips() {
  const list = screen.queryByRole('list', { name: 'Active filters' });
  return list
    ? within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent)
    : [];
}

describe('The filter bar', () => {
  it('adds a filter to the request and the address, and removes it again', async () => {
    const server = fakeServer({ corpora: [corpus], elements: { [corpus.id]: elements } });
    const { router } = renderNavigation(`/browse/${corpus.id}?folder=false`);
    expect(await screen.findByRole('link', { name: 'Folio 1' })).toBeTruthy();
    expect(chips()).toEqual(['Folder: No×']);

    await addFilter('Type', 'Page');
    await waitFor(() => expect(server.lastList()!.query.get('type')).toBe('page'));
    expect(server.lastList()!.query.get('folder')).toBe('false');
    expect(chips()).toEqual(['Type: Page×', 'Folder: No×']);
    expect(router.state.location.search).toEqual({ type: 'page', folder: false });
    // One filter per name: a used name is no longer offered.
    const names = within(screen.getByRole('combobox', { name: 'Filter' }))
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(names).not.toContain('Type');
    expect(names).not.toContain('Folder');
    expect(names).toHaveLength(17);

    await userEvent.click(screen.getByRole('button', { name: 'Remove filter Folder' }));
    await waitFor(() => expect(server.lastList()!.query.has('folder')).toBe(false));
    expect(server.lastList()!.query.get('type')).toBe('page');
    expect(chips()).toEqual(['Type: Page×']);
    expect(router.state.location.search).toEqual({ type: 'page' });
  });

  it('keeps an unfiltered view when the last filter goes, rather than going back to the top level', async () => {
    const server = fakeServer({ corpora: [corpus], elements: { [corpus.id]: elements } });
    const { router } = renderNavigation(`/browse/${corpus.id}?type=page`);
    expect(await screen.findByRole('link', { name: 'Folio 1' })).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Remove filter Type' }));
    expect(await screen.findByRole('link', { name: 'Register 1' })).toBeTruthy();
    expect(router.state.location.search).toEqual({ page: 1 });
    const query = server.lastList()!.query;
    expect(query.has('type')).toBe(false);
    expect(query.has('top_level')).toBe(false);
    expect(chips()).toEqual([]);
  });

  it('refuses an invalid value with an error notification and no request', async () => {
    const server = fakeServer({ corpora: [corpus], elements: { [corpus.id]: elements } });
    renderNavigation(`/browse/${corpus.id}?type=page`);
    expect(await screen.findByRole('link', { name: 'Folio 1' })).toBeTruthy();
    const before = server.listCalls().length;

    await addFilter('Confidence', '1.5');
    expect((await screen.findByRole('alert')).textContent).toContain(
      'A confidence must be a number between 0.0 and 1.0',
    );
    // The value stays in the field for the person to correct.
    expect((screen.getByLabelText('Value') as HTMLInputElement).value).toBe('1.5');

    await addFilter('Mirrored', 'maybe');
    await waitFor(() =>
      expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toContainEqual(
        expect.stringContaining('Only Yes and No are allowed'),
      ),
    );
    await addFilter('Rotation angle', '360');
    await addFilter('Worker run', 'not-a-uuid');
    await addFilter('Metadata value', 'ten', 'greater than');
    const alerts = screen.getAllByRole('alert').map((alert) => alert.textContent);
    for (const message of [
      'A rotation angle must be a number between 0 and 359 degrees',
      'Invalid UUID',
      'Numeric comparison operators on metadata values require finite numbers',
    ]) {
      expect(alerts).toContainEqual(expect.stringContaining(message));
    }
    expect(server.listCalls()).toHaveLength(before);
    expect(chips()).toEqual(['Type: Page×']);
  });

  it('refuses a type the project does not have, naming it', async () => {
    const server = fakeServer({ corpora: [corpus], elements: { [corpus.id]: elements } });
    renderNavigation(`/browse/${corpus.id}?folder=true`);
    expect(await screen.findByRole('link', { name: 'Register 1' })).toBeTruthy();
    const before = server.listCalls().length;

    await addFilter('Type', 'Charter');
    expect((await screen.findByRole('alert')).textContent).toContain("Type 'Charter' not found.");
    expect(server.listCalls()).toHaveLength(before);
  });

  it('sends a numeric metadata comparison with its operator', async () => {
    const server = fakeServer({ corpora: [corpus], elements: { [corpus.id]: elements } });
    const { router } = renderNavigation(`/browse/${corpus.id}?type=page`);
    expect(await screen.findByRole('link', { name: 'Folio 1' })).toBeTruthy();

    await addFilter('Metadata value', '1850', 'greater than or equal to');
    await waitFor(() => expect(server.lastList()!.query.get('metadata_value')).toBe('1850'));
    expect(server.lastList()!.query.get('metadata_operator')).toBe('gte');
    expect(chips()).toContain('Metadata value: ≥ 1850×');
    expect(router.state.location.search).toMatchObject({
      metadata_value: 1850,
      metadata_operator: 'gte',
    });
  });

  it('checks a class against the project classes and sends its id', async () => {
    const signature = { id: uuid(), name: 'Signature' };
    const server = fakeServer({
      corpora: [corpus],
      elements: { [corpus.id]: elements },
      classes: { [corpus.id]: [signature] },
    });
    renderNavigation(`/browse/${corpus.id}?type=page`);
    expect(await screen.findByRole('link', { name: 'Folio 1' })).toBeTruthy();
    const before = server.listCalls().length;

    await addFilter('Class', 'Seal');
    expect((await screen.findByRole('alert')).textContent).toContain("Unknown class 'Seal'");
    expect(server.listCalls()).toHaveLength(before);

    await addFilter('Class', 'signature');
    await waitFor(() => expect(server.lastList()!.query.get('class_id')).toBe(signature.id));
    expect(chips()).toContain('Class: Signature×');
  });

  it('accepts a class id as it is when the server cannot list classes', async () => {
    const server = fakeServer({ corpora: [corpus], elements: { [corpus.id]: elements } });
    renderNavigation(`/browse/${corpus.id}?type=page`);
    expect(await screen.findByRole('link', { name: 'Folio 1' })).toBeTruthy();

    await addFilter('Class', 'Seal');
    expect((await screen.findByRole('alert')).textContent).toContain("Unknown class 'Seal'");
    const id = uuid();
    await addFilter('Class', id);
    await waitFor(() => expect(server.lastList()!.query.get('class_id')).toBe(id));
  });

  it('orders, changes direction and page size, all in the request', async () => {
    const server = fakeServer({ corpora: [corpus], elements: { [corpus.id]: elements } });
    const { router } = renderNavigation(`/browse/${corpus.id}?type=page`);
    expect(await screen.findByRole('link', { name: 'Folio 1' })).toBeTruthy();
    expect(
      within(screen.getByRole('combobox', { name: 'Order by' }))
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Name', 'Creation date', 'Random']);

    await userEvent.selectOptions(
      screen.getByRole('combobox', { name: 'Order by' }),
      'Creation date',
    );
    await userEvent.selectOptions(
      screen.getByRole('combobox', { name: 'Direction' }),
      'Descending',
    );
    await waitFor(() => expect(server.lastList()!.query.get('order_direction')).toBe('desc'));
    expect(server.lastList()!.query.get('order')).toBe('created');

    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Order by' }), 'Random');
    await waitFor(() => expect(server.lastList()!.query.get('order')).toBe('random'));
    expect(server.lastList()!.query.has('order_direction')).toBe(false);
    expect(screen.queryByRole('combobox', { name: 'Direction' })).toBeNull();

    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Page size' }), '100');
    await waitFor(() => expect(server.lastList()!.query.get('page_size')).toBe('100'));
    expect(
      within(screen.getByRole('combobox', { name: 'Page size' }))
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['20', '50', '100', '500']);
    expect(router.state.location.search).toEqual({ type: 'page', order: 'random', page_size: 100 });
  });

  it('follows the browser back and forward through filter changes', async () => {
    const server = fakeServer({ corpora: [corpus], elements: { [corpus.id]: elements } });
    const { history } = renderNavigation(`/browse/${corpus.id}?folder=true`);
    expect(await screen.findByRole('link', { name: 'Register 1' })).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Remove filter Folder' }));
    await addFilter('Name', 'folio 2');
    expect(await screen.findByRole('link', { name: 'Folio 2' })).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Register 1' })).toBeNull());
    expect(chips()).toEqual(['Name: folio 2×']);

    act(() => history.back());
    expect(await screen.findByRole('link', { name: 'Register 1' })).toBeTruthy();
    expect(chips()).toEqual([]);
    act(() => history.back());
    await waitFor(() => expect(chips()).toEqual(['Folder: Yes×']));
    expect(screen.queryByRole('link', { name: 'Folio 1' })).toBeNull();
    act(() => history.forward());
    await waitFor(() => expect(chips()).toEqual([]));
    expect(await screen.findByRole('link', { name: 'Folio 1' })).toBeTruthy();
    expect(server.listCalls().length).toBeGreaterThanOrEqual(3);
  });

  it('shows a refused listing in a red box, fields named as filters', async () => {
    fakeServer({
      corpora: [corpus],
      elements: { [corpus.id]: elements },
      listElements: (call) =>
        call.query.has('worker_version')
          ? apiError(400, [
              { attr: 'worker_version', detail: 'This worker version does not exist.' },
            ])
          : null,
    });
    renderNavigation(`/browse/${corpus.id}?worker_version=${uuid()}`);

    expect(await screen.findByText('An error occurred while listing elements')).toBeTruthy();
    expect(screen.getByText('Worker version: This worker version does not exist.')).toBeTruthy();
    expect((await screen.findByRole('alert')).textContent).toContain(
      'This worker version does not exist.',
    );
  });
});
