// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import '../shell/domStubs';
import { describe, expect, it, vi } from 'vitest';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  apiError,
  fakeProcessServer,
  isolateEachTest,
  makeCorpus,
  makeElements,
  makeProcess,
  renderProcessStep,
  uuid,
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

function project() {
  const corpus = makeCorpus();
  const process = makeProcess(corpus, { name: 'OCR run' });
  const lineClass = { id: uuid(), name: 'handwritten' };
  const pages = makeElements(25, 'page', 0, 'Page');
  const lines = makeElements(3, 'text_line', 1, 'Line');
  lines[0]!.classIds = [lineClass.id];
  return { corpus, process, elements: [...pages, ...lines], classes: [lineClass] };
}

const elementsHeading = () => screen.findByRole('heading', { level: 2 });

describe('the filter step of a new process', () => {
  it('counts the selected elements and loads more by cursor', async () => {
    const setup = project();
    const server = fakeProcessServer(setup);
    renderProcessStep(`/process/${setup.process.id}/filter`);
    const user = userEvent.setup();

    expect(await screen.findByRole('heading', { name: 'OCR run' })).toBeTruthy();
    await waitFor(async () => expect((await elementsHeading()).textContent).toBe('28 elements'));
    expect(screen.getAllByRole('article')).toHaveLength(20);
    const first = server.callsTo('GET', `/process/${setup.process.id}/elements/`)[0]!;
    expect(first.query.get('with_count')).toBe('true');
    expect(first.query.get('with_image')).toBe('true');

    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(28));
    expect(
      server.callsTo('GET', `/process/${setup.process.id}/elements/`).at(-1)!.query.get('cursor'),
    ).toBe('20');
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    // The card names the type as people read it.
    const firstCard = within(screen.getAllByRole('article')[0]!);
    expect(firstCard.getByRole('link', { name: 'Line 001' })).toBeTruthy();
    expect(firstCard.getByText('Text line')).toBeTruthy();
  });

  it('saves each filter on the process and refreshes the count', async () => {
    const setup = project();
    const server = fakeProcessServer(setup);
    renderProcessStep(`/process/${setup.process.id}/filter`);
    const user = userEvent.setup();
    await waitFor(async () => expect((await elementsHeading()).textContent).toBe('28 elements'));
    const patches = () =>
      server.callsTo('PATCH', `/process/${setup.process.id}/`).map((call) => call.body);
    // The project's types and classes are offered once they are in.
    await screen.findByRole('option', { name: 'Text line' });
    await screen.findByRole('option', { name: 'handwritten' });

    await user.selectOptions(screen.getByLabelText('Element type'), 'text_line');
    await waitFor(async () => expect((await elementsHeading()).textContent).toBe('3 elements'));
    expect(patches()).toEqual([{ element_type: 'text_line' }]);

    await user.selectOptions(screen.getByLabelText('Class'), 'handwritten');
    await waitFor(async () => expect((await elementsHeading()).textContent).toBe('1 element'));
    expect(patches().at(-1)).toEqual({ ml_class_id: setup.classes[0]!.id });

    await user.selectOptions(screen.getByLabelText('Class'), 'Any class');
    await user.selectOptions(screen.getByLabelText('Element type'), 'All types');
    await user.selectOptions(screen.getByLabelText('Load children'), 'No children');
    await waitFor(async () => expect((await elementsHeading()).textContent).toBe('25 elements'));
    expect(patches().slice(-3)).toEqual([
      { ml_class_id: null },
      { element_type: null },
      { load_children: 'none' },
    ]);

    await user.type(screen.getByLabelText('Name contains'), 'page 01');
    await waitFor(async () => expect((await elementsHeading()).textContent).toBe('10 elements'));
    // Typing saves once, after the pause, not on every key.
    expect(patches().at(-1)).toEqual({ element_name_contains: 'page 01' });
    expect(patches().filter((body) => 'element_name_contains' in (body as object))).toHaveLength(1);
    expect(setup.process).toMatchObject({
      element_type: null,
      ml_class_id: null,
      load_children: 'none',
      element_name_contains: 'page 01',
    });
  });

  it("shows the server's refusal of a filter", async () => {
    const setup = project();
    fakeProcessServer({
      ...setup,
      overrides: {
        [`PATCH /process/${setup.process.id}/`]: () =>
          apiError(400, [
            { attr: 'load_children', detail: 'The filters of a started process cannot change.' },
          ]),
      },
    });
    renderProcessStep(`/process/${setup.process.id}/filter`);
    const user = userEvent.setup();
    await waitFor(async () => expect((await elementsHeading()).textContent).toBe('28 elements'));
    await user.selectOptions(screen.getByLabelText('Load children'), 'Direct children');
    expect(await screen.findByText('The filters of a started process cannot change.')).toBeTruthy();
    // The form keeps what the process holds.
    expect((screen.getByLabelText('Load children') as HTMLSelectElement).value).toBe('all');
  });

  it('leads to the configure step', async () => {
    const setup = project();
    fakeProcessServer(setup);
    renderProcessStep(`/process/${setup.process.id}/filter`);
    const link = await screen.findByRole('link', { name: 'Configure workers' });
    expect(link.getAttribute('href')).toBe(`/process/${setup.process.id}/configure`);
  });

  it('sends a started process to its details', async () => {
    const setup = project();
    setup.process.tasks = [{ id: uuid() } as never];
    setup.process.state = 'running';
    const server = fakeProcessServer(setup);
    renderProcessStep(`/process/${setup.process.id}/filter`);
    expect((await screen.findByTestId('elsewhere')).textContent).toBe(
      `Now at /process/${setup.process.id}`,
    );
    expect(server.callsTo('GET', `/process/${setup.process.id}/elements/`)).toEqual([]);
  });

  it('says why a process cannot be read', async () => {
    const id = uuid();
    fakeProcessServer({
      ...project(),
      overrides: {
        [`/process/${id}/`]: () =>
          apiError(404, [{ attr: null, detail: 'No Process matches the given query.' }]),
      },
    });
    renderProcessStep(`/process/${id}/filter`);
    expect(
      await screen.findByText(
        'The process could not be loaded: No Process matches the given query.',
      ),
    ).toBeTruthy();
  });
});
