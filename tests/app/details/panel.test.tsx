// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import {
  classification,
  detailsApi,
  isolateDetailsTests,
  json,
  openDetails,
  uuid,
} from '../support/details';

isolateDetailsTests();

const sectionNames = (panel: HTMLElement) =>
  within(panel)
    .getAllByRole('region')
    .map((section) => section.getAttribute('aria-label'));

describe('The element details panel', () => {
  it("shows its sections in the spec's order", async () => {
    const { element } = detailsApi({ classes: [{ id: uuid(), name: 'Charter' }] });
    const { panel } = await openDetails(element.id);
    await within(panel).findByRole('region', { name: 'Classifications' });
    expect(sectionNames(panel)).toEqual([
      'Orientation',
      'Classifications',
      'Transcriptions',
      'New transcription',
      'Metadata',
      'Datasets',
    ]);
  });

  it('has no orientation for a folder', async () => {
    const { element } = detailsApi({ element: { type: 'folder', name: 'Volume 2' } });
    const { panel } = await openDetails(element.id);
    await within(panel).findByRole('region', { name: 'Transcriptions' });
    expect(within(panel).queryByRole('region', { name: 'Orientation' })).toBeNull();
  });

  it('saves a rotation and a mirroring as soon as they change', async () => {
    const id = uuid();
    const patches: unknown[] = [];
    const { element } = detailsApi({
      element: { id },
      overrides: {
        [`PATCH /element/${id}/`]: (call) => {
          patches.push(call.body);
          Object.assign(element, call.body);
          return json(200, element);
        },
      },
    });
    const { panel, user } = await openDetails(element.id);
    const orientation = within(panel).getByRole('region', { name: 'Orientation' });
    expect(
      within(orientation)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['0°', '90°', '180°', '270°']);
    await user.selectOptions(within(orientation).getByLabelText('Rotation'), '90°');
    await waitFor(() => expect(patches).toEqual([{ rotation_angle: 90 }]));
    await waitFor(() =>
      expect((within(orientation).getByLabelText('Rotation') as HTMLSelectElement).value).toBe(
        '90',
      ),
    );
    await user.click(within(orientation).getByLabelText('Mirrored'));
    await waitFor(() => expect(patches).toEqual([{ rotation_angle: 90 }, { mirrored: true }]));
  });
});

describe('Classifications', () => {
  const charter = { id: uuid(), name: 'Charter' };

  it('are hidden from a reader when the element has none', async () => {
    const { element } = detailsApi({ rights: ['read'], classes: [charter] });
    const { panel } = await openDetails(element.id);
    await within(panel).findByRole('region', { name: 'Transcriptions' });
    expect(within(panel).queryByRole('region', { name: 'Classifications' })).toBeNull();
  });

  it('are hidden from a writer when the project has no ML class and the element none', async () => {
    const { element, corpus } = detailsApi();
    const { panel, queryClient } = await openDetails(element.id);
    // Once the project's (empty) list of classes is in.
    await waitFor(() =>
      expect(queryClient.getQueryState(['classes', corpus.id])?.status).toBe('success'),
    );
    expect(within(panel).queryByRole('region', { name: 'Classifications' })).toBeNull();
  });

  it("show a writer of a project with classes 'No classification for this project'", async () => {
    const { element } = detailsApi({ rights: ['read', 'write'], classes: [charter] });
    const { panel } = await openDetails(element.id);
    const section = await within(panel).findByRole('region', { name: 'Classifications' });
    expect(within(section).getByText('No classification for this project')).toBeTruthy();
    expect(within(section).getByLabelText('Add a classification')).toBeTruthy();
  });

  it('show a reader the classifications there are, without the add form', async () => {
    const { element } = detailsApi({
      rights: ['read'],
      element: { classifications: [classification(charter, { confidence: 0.5 })] },
    });
    const { panel } = await openDetails(element.id);
    const section = await within(panel).findByRole('region', { name: 'Classifications' });
    expect(within(section).getByText('Charter')).toBeTruthy();
    expect(within(section).queryByLabelText('Add a classification')).toBeNull();
    const validate = within(section).getByRole('button', { name: 'Validate Charter' });
    expect((validate as HTMLButtonElement).disabled).toBe(true);
  });

  it('tag the confidence by level, with the rounded percent', async () => {
    const worker = { id: uuid(), summary: 'Worker Classifier @ abcdef' };
    const make = (name: string, confidence: number) =>
      classification({ id: uuid(), name }, { confidence, worker_run: worker });
    const { element } = detailsApi({
      element: {
        classifications: [
          make('High', 0.8149),
          make('Just above', 0.801),
          make('At 0.8', 0.8),
          make('Medium', 0.613),
          make('At 0.6', 0.6),
          make('Low', 0.046),
        ],
      },
    });
    const { panel } = await openDetails(element.id);
    const section = await within(panel).findByRole('region', { name: 'Classifications' });
    const tags = within(section)
      .getAllByRole('listitem')
      .map((item) => {
        const tag = item.querySelector('[data-level]')!;
        return `${item.querySelector('span')!.textContent} ${tag.textContent} ${tag.getAttribute('data-level')}`;
      });
    expect(tags).toEqual([
      'High 81% success',
      'Just above 80% success',
      'At 0.8 80% warning',
      'Medium 61% warning',
      'At 0.6 60% danger',
      'Low 5% danger',
    ]);
  });

  it("list 10 matching classes, then 'and N more classes'", async () => {
    const classes = Array.from({ length: 13 }, (_, i) => ({
      id: uuid(),
      name: `Deed ${String(i + 1).padStart(2, '0')}`,
    }));
    const { element } = detailsApi({ classes: [...classes, { id: uuid(), name: 'Letter' }] });
    const { panel, user } = await openDetails(element.id);
    const section = await within(panel).findByRole('region', { name: 'Classifications' });
    await user.type(within(section).getByLabelText('Add a classification'), 'deed');
    const listbox = within(section).getByRole('listbox', { name: 'Classes' });
    expect(within(listbox).getAllByRole('option')).toHaveLength(10);
    expect(within(listbox).getByText('and 3 more classes')).toBeTruthy();
    await user.type(within(section).getByLabelText('Add a classification'), ' 1');
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Deed 01', 'Deed 10', 'Deed 11', 'Deed 12', 'Deed 13']);
    expect(within(listbox).queryByText(/more classes/)).toBeNull();
  });

  it('search with the first 10 distinct words only', async () => {
    const name = 'one two three four five six seven eight nine ten';
    const { element } = detailsApi({ classes: [{ id: uuid(), name }] });
    const { panel, user } = await openDetails(element.id);
    const section = await within(panel).findByRole('region', { name: 'Classifications' });
    const search = within(section).getByLabelText('Add a classification');
    await user.type(search, `${name} eleven`);
    expect(within(section).getByRole('option', { name })).toBeTruthy();
    // Repeated words count once: "eleven" is the 11th distinct one, still left out.
    await user.clear(search);
    await user.type(search, `one one ${name} eleven`);
    expect(within(section).getByRole('option', { name })).toBeTruthy();
    await user.clear(search);
    await user.type(search, 'one eleven');
    expect(within(section).queryByRole('option')).toBeNull();
    expect(within(section).getByText('No class')).toBeTruthy();
  });

  it('add a manual classification, shown validated at 100%', async () => {
    const { element, api } = detailsApi({ classes: [charter] });
    const { panel, user } = await openDetails(element.id);
    const section = await within(panel).findByRole('region', { name: 'Classifications' });
    await user.type(within(section).getByLabelText('Add a classification'), 'char');
    await user.click(within(section).getByRole('option', { name: 'Charter' }));
    await user.click(within(section).getByRole('button', { name: 'Add' }));
    const item = await within(section).findByRole('listitem');
    expect(item.textContent).toContain('Charter');
    expect(item.textContent).toContain('100%');
    expect(within(item).getByRole('button', { name: 'Delete Charter' })).toBeTruthy();
    const posts = api.calls.filter((call) => call.method === 'POST');
    expect(posts.map((call) => [call.path, call.body])).toEqual([
      ['/classifications/', { element: element.id, ml_class: charter.id }],
    ]);
  });

  it('refuse a second manual classification of the same class', async () => {
    const { element, api } = detailsApi({
      classes: [charter],
      element: {
        classifications: [classification(charter, { state: 'validated', confidence: 1 })],
      },
    });
    const { panel, user } = await openDetails(element.id);
    const section = await within(panel).findByRole('region', { name: 'Classifications' });
    await user.type(await within(section).findByLabelText('Add a classification'), 'Charter');
    await user.click(within(section).getByRole('option', { name: 'Charter' }));
    await user.click(within(section).getByRole('button', { name: 'Add' }));
    expect(
      within(section).getByText('A manual classification for this ML class already exists.'),
    ).toBeTruthy();
    expect(api.calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it('say a manual classification rejected is deleted, and it goes (204)', async () => {
    const { element, api } = detailsApi({
      classes: [charter],
      element: {
        classifications: [classification(charter, { state: 'validated', confidence: 1 })],
      },
    });
    const id = element.classifications[0]!.id;
    const { panel, user } = await openDetails(element.id);
    const section = await within(panel).findByRole('region', { name: 'Classifications' });
    await user.click(within(section).getByRole('button', { name: 'Delete Charter' }));
    expect(await screen.findByText('Classification deleted due to rejection.')).toBeTruthy();
    expect(api.calls.filter((call) => call.method === 'PUT').map((call) => call.path)).toEqual([
      `/classifications/${id}/reject/`,
    ]);
    expect(await within(panel).findByText('No classification for this project')).toBeTruthy();
    expect(within(panel).queryByText('Charter')).toBeNull();
  });

  it("validate and reject a worker's classifications in place", async () => {
    const worker = { id: uuid(), summary: 'Worker Classifier @ abcdef' };
    const deed = { id: uuid(), name: 'Deed' };
    const { element, api } = detailsApi({
      classes: [charter, deed],
      element: {
        classifications: [
          classification(charter, { worker_run: worker, confidence: 0.7 }),
          classification(deed, { worker_run: worker, confidence: 0.3 }),
        ],
      },
    });
    const [first, second] = element.classifications.map((c) => c.id);
    const { panel, user } = await openDetails(element.id);
    const section = await within(panel).findByRole('region', { name: 'Classifications' });
    const button = (name: string) =>
      within(section).getByRole('button', { name }) as HTMLButtonElement;
    await user.click(button('Validate Charter'));
    // Done once the other buttons are back; validating is then disabled for good.
    await waitFor(() => expect(button('Reject Deed').disabled).toBe(false));
    expect(button('Validate Charter').disabled).toBe(true);
    expect(button('Reject Charter').disabled).toBe(false);
    await user.click(button('Reject Deed'));
    await waitFor(() => expect(button('Validate Deed').disabled).toBe(false));
    expect(button('Reject Deed').disabled).toBe(true);
    // Still listed: a worker's classification rejected is kept, as rejected.
    expect(within(section).getByText('Deed')).toBeTruthy();
    expect(screen.queryByText('Classification deleted due to rejection.')).toBeNull();
    expect(api.calls.filter((call) => call.method === 'PUT').map((call) => call.path)).toEqual([
      `/classifications/${first}/validate/`,
      `/classifications/${second}/reject/`,
    ]);
  });
});
