// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Dataset } from '@/api/datasets';
import type { JobDetail } from '@/api/jobs';
import type { ListQuery } from '@/api/elements';
import type { Corpus, User } from '@/api/types';
import { PopulateModal } from '@/features/datasets/populate/PopulateModal';
import {
  apiError,
  datasetServer,
  isolateEachTest,
  json,
  makeCorpus,
  makeDataset,
  makeUser,
  renderModal,
  uuid,
  type Handler,
} from './populateHarness';

isolateEachTest();

const FOLDER_ID = '00000000-0000-4000-8c00-00000000f01d';

function open(
  corpus: Corpus,
  options: { filters?: ListQuery; parentId?: string | null; user?: User | null } = {},
) {
  const { filters = {}, parentId = null, user = makeUser() } = options;
  return renderModal(
    (close) => (
      <PopulateModal
        corpus={corpus}
        parentId={parentId}
        filters={filters}
        onClose={close}
        pollMs={20}
      />
    ),
    user,
  );
}

async function dialog() {
  return screen.findByRole('dialog', { name: 'Populate dataset' });
}

const ratio = (name: string) => screen.getByLabelText(name) as HTMLInputElement;
const ratios = (...names: string[]) => names.map((name) => Number(ratio(name).value));

function job(overrides: Partial<JobDetail> = {}): JobDetail {
  return {
    id: uuid(),
    description: 'Populate Handwriting',
    status: 'queued',
    progress: null,
    enqueued_at: '2024-05-01T10:00:00Z',
    started_at: null,
    ended_at: null,
    kind: 'dataset.populate',
    corpus_id: null,
    result: null,
    error: null,
    ...overrides,
  };
}

/** Answers the populate with a queued job, then the job's states in turn, the last repeated. */
function populating(dataset: Dataset, states: Partial<JobDetail>[]) {
  const queued = job();
  let polls = 0;
  const populate: Handler = () =>
    json(202, { dataset: { ...dataset, state: 'building' }, job: queued });
  const poll: Handler = () => {
    const state = states[Math.min(polls, states.length - 1)]!;
    polls += 1;
    return json(200, { ...queued, ...state });
  };
  return {
    [`POST /datasets/${dataset.id}/populate/`]: populate,
    [`GET /jobs/${queued.id}/`]: poll,
  };
}

async function chooseType(label: string) {
  await userEvent.click(within(await dialog()).getByLabelText(label));
}

describe('Populate dataset', () => {
  it('splits train, dev and test 80/10/10 and lets train absorb the others', async () => {
    const corpus = makeCorpus();
    const dataset = makeDataset(corpus);
    datasetServer(corpus, [dataset]);
    const user = userEvent.setup();
    open(corpus);
    await dialog();
    // The only open dataset is chosen for the user.
    expect(((await screen.findByLabelText('Dataset')) as HTMLSelectElement).value).toBe(dataset.id);
    expect(ratios('train', 'dev', 'test')).toEqual([80, 10, 10]);

    await user.clear(ratio('dev'));
    await user.type(ratio('dev'), '25');
    expect(ratios('train', 'dev', 'test')).toEqual([65, 25, 10]);

    // Train cannot go below 0: dev stops where train is empty.
    await user.clear(ratio('dev'));
    await user.type(ratio('dev'), '95');
    expect(ratios('train', 'dev', 'test')).toEqual([0, 90, 10]);
    expect(screen.queryByText('The sum of all ratios must be 100%')).toBeNull();
  });

  it('splits other sets evenly, the remainder on the last by name', async () => {
    const corpus = makeCorpus();
    datasetServer(corpus, [makeDataset(corpus, { sets: ['b', 'c', 'a'] })]);
    open(corpus);
    await screen.findByLabelText('a');
    expect(ratios('a', 'b', 'c')).toEqual([33, 33, 34]);
  });

  it('says when the ratios do not sum to 100% and sends nothing', async () => {
    const corpus = makeCorpus();
    const dataset = makeDataset(corpus);
    const { callsTo } = datasetServer(corpus, [dataset]);
    const user = userEvent.setup();
    open(corpus, { filters: { type: 'page' } });
    await screen.findByLabelText('train');
    expect(screen.queryByText('The sum of all ratios must be 100%')).toBeNull();

    // Train absorbs the others; changed itself, nothing absorbs it.
    await user.clear(ratio('train'));
    await user.type(ratio('train'), '70');
    expect(ratios('train', 'dev', 'test')).toEqual([70, 10, 10]);
    expect(screen.getByText('The sum of all ratios must be 100%')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Populate' }));
    expect(callsTo('POST', `/datasets/${dataset.id}/populate/`)).toHaveLength(0);

    await user.clear(ratio('train'));
    await user.type(ratio('train'), '80');
    expect(screen.queryByText('The sum of all ratios must be 100%')).toBeNull();
  });

  it('sends fractions, leaves sets at 0 % out and draws from the folder given', async () => {
    const corpus = makeCorpus();
    const dataset = makeDataset(corpus);
    const { callsTo } = datasetServer(
      corpus,
      [dataset],
      populating(dataset, [{ status: 'started', progress: 0.2 }]),
    );
    const user = userEvent.setup();
    open(corpus, { parentId: FOLDER_ID });
    await screen.findByLabelText('test');
    await user.clear(ratio('test'));
    await user.type(ratio('test'), '0');
    await user.clear(screen.getByLabelText('Number of elements'));
    await user.type(screen.getByLabelText('Number of elements'), '250');
    await chooseType('Page');
    await chooseType('Text line');
    await user.click(screen.getByLabelText('Recursive'));
    await user.click(screen.getByRole('button', { name: 'Populate' }));

    await waitFor(() =>
      expect(callsTo('POST', `/datasets/${dataset.id}/populate/`)).toHaveLength(1),
    );
    expect(callsTo('POST', `/datasets/${dataset.id}/populate/`)[0]!.body).toEqual({
      recursive: true,
      types: ['page', 'text_line'],
      count: 250,
      sets: { train: 0.9, dev: 0.1 },
      parent_id: FOLDER_ID,
    });
  });

  it('requires a dataset, a count of at least 1 and a type', async () => {
    const corpus = makeCorpus();
    const first = makeDataset(corpus, { name: 'Lines' });
    const second = makeDataset(corpus, { name: 'Pages' });
    const { calls } = datasetServer(corpus, [first, second]);
    const user = userEvent.setup();
    open(corpus);
    const select = (await screen.findByLabelText('Dataset')) as HTMLSelectElement;
    expect(select.value).toBe('');
    expect((screen.getByLabelText('Number of elements') as HTMLInputElement).value).toBe('1000');
    await user.clear(screen.getByLabelText('Number of elements'));
    await user.type(screen.getByLabelText('Number of elements'), '0');
    await user.click(screen.getByRole('button', { name: 'Populate' }));

    expect(screen.getByText('This field is required')).toBeTruthy();
    expect(screen.getByText('The count must be a whole number of at least 1')).toBeTruthy();
    expect(screen.getByText('At least one type is required')).toBeTruthy();
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);

    await user.selectOptions(select, second.id);
    expect(screen.queryByText('This field is required')).toBeNull();
    expect(ratios('train', 'dev', 'test')).toEqual([80, 10, 10]);
  });

  it('offers only open datasets, and says when there is none', async () => {
    const corpus = makeCorpus();
    const building = makeDataset(corpus, { name: 'Old split', state: 'complete' });
    const open1 = makeDataset(corpus, { name: 'Fresh split' });
    datasetServer(corpus, [building, open1]);
    open(corpus);
    const select = (await screen.findByLabelText('Dataset')) as HTMLSelectElement;
    const options = within(select).getAllByRole('option') as HTMLOptionElement[];
    expect(options.map((option) => [option.textContent, option.disabled])).toEqual([
      ['Choose a dataset', false],
      ['Old split (complete)', true],
      ['Fresh split', false],
    ]);
  });

  it("says 'No dataset available' when the project has no open dataset", async () => {
    const corpus = makeCorpus();
    datasetServer(corpus, []);
    const user = userEvent.setup();
    open(corpus, { filters: { type: 'page' } });
    expect(await screen.findByText('No dataset available')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Populate' }));
    expect(screen.getByText('This field is required')).toBeTruthy();
  });

  it('takes the type and recursive flag of the list and names the filters it ignores', async () => {
    const corpus = makeCorpus();
    datasetServer(corpus, [makeDataset(corpus)]);
    open(corpus, {
      filters: {
        type: 'page',
        recursive: 'true',
        name: 'Folio',
        top_level: 'true',
        page: 2,
        page_size: 20,
        order: 'name',
        order_direction: 'asc',
      },
    });
    const modal = await dialog();
    expect((within(modal).getByLabelText('Page') as HTMLInputElement).checked).toBe(true);
    expect((within(modal).getByLabelText('Text line') as HTMLInputElement).checked).toBe(false);
    expect((within(modal).getByLabelText('Recursive') as HTMLInputElement).checked).toBe(true);
    const ignored = within(modal).getByRole('list', {
      name: 'These filters of the list cannot be used and are ignored:',
    });
    expect(
      within(ignored)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Name: Folio', 'Top level: Yes']);
  });

  it('shows no form without write rights, and asks for a verified e-mail', async () => {
    const reader = makeCorpus({ rights: ['read'] });
    datasetServer(reader, [makeDataset(reader)]);
    open(reader);
    const modal = await dialog();
    expect(
      within(modal).getByText(
        'You must have a contributor access in order to perform this action.',
      ),
    ).toBeTruthy();
    expect(within(modal).queryByLabelText('Dataset')).toBeNull();
    expect(within(modal).queryByRole('button', { name: 'Populate' })).toBeNull();
  });

  it('asks an unverified writer to verify their e-mail first', async () => {
    const corpus = makeCorpus();
    datasetServer(corpus, [makeDataset(corpus)]);
    open(corpus, { user: makeUser({ verified_email: false }) });
    const modal = await dialog();
    expect(within(modal).getByText('Your email address should be verified')).toBeTruthy();
    expect(within(modal).queryByLabelText('Dataset')).toBeNull();
  });

  it('follows the job, then tells how many were distributed and opens the dataset', async () => {
    const corpus = makeCorpus();
    const dataset = makeDataset(corpus);
    datasetServer(
      corpus,
      [dataset],
      populating(dataset, [
        { status: 'started', progress: 0.5 },
        { status: 'started', progress: 0.5 },
        {
          status: 'processed',
          progress: 1,
          result: { count: 42, sets: { train: 34, dev: 4, test: 4 }, seed: 7 },
        },
      ]),
    );
    const user = userEvent.setup();
    open(corpus, { filters: { type: 'page' } });
    await screen.findByLabelText('train');
    await user.click(screen.getByRole('button', { name: 'Populate' }));

    const progress = await screen.findByRole('progressbar', { name: 'Populate progress' });
    await waitFor(() => expect(progress.getAttribute('aria-valuenow')).toBe('50'));
    expect(await screen.findByText('42 elements have been successfully distributed.')).toBeTruthy();
    expect(await screen.findByRole('heading', { name: `Dataset page ${dataset.id}` })).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("shows the job's error when the populate fails", async () => {
    const corpus = makeCorpus();
    const dataset = makeDataset(corpus);
    datasetServer(
      corpus,
      [dataset],
      populating(dataset, [{ status: 'error', error: 'No element matches these filters.' }]),
    );
    const user = userEvent.setup();
    open(corpus, { filters: { type: 'page' } });
    await screen.findByLabelText('train');
    await user.click(screen.getByRole('button', { name: 'Populate' }));

    // The notice, and the modal saying which dataset failed and why.
    expect(await screen.findByText('No element matches these filters.')).toBeTruthy();
    const modal = await dialog();
    expect(modal.textContent).toContain(
      'Populating Handwriting failed: No element matches these filters.',
    );
    expect(screen.queryByRole('heading', { name: /Dataset page/ })).toBeNull();
  });

  it('puts the messages of a 400 under the fields they name', async () => {
    const corpus = makeCorpus();
    const dataset = makeDataset(corpus);
    datasetServer(corpus, [dataset], {
      [`POST /datasets/${dataset.id}/populate/`]: () =>
        apiError(400, [
          { attr: 'types', detail: "Type 'page' has no element here." },
          { attr: 'count', detail: 'Ensure this value is less than or equal to 100000.' },
          { attr: 'sets.train', detail: 'Set train is not in this dataset.' },
          { attr: 'recursive', detail: 'Must be a valid boolean.' },
          { attr: 'dataset', detail: 'Only open datasets can be populated.' },
          { attr: 'parent_id', detail: 'Parent element is not found.' },
        ]),
    });
    const user = userEvent.setup();
    open(corpus, { filters: { type: 'page' } });
    await screen.findByLabelText('train');
    await user.click(screen.getByRole('button', { name: 'Populate' }));

    const under = (label: string, text: string) => {
      const field = screen.getByLabelText(label);
      const describedBy = (field.closest('fieldset') ?? field).getAttribute('aria-describedby');
      expect(document.getElementById(describedBy!)!.textContent).toContain(text);
    };
    await screen.findByText("Type 'page' has no element here.");
    under('Page', "Type 'page' has no element here.");
    under('Number of elements', 'Ensure this value is less than or equal to 100000.');
    under('train', 'Set train is not in this dataset.');
    under('Dataset', 'Only open datasets can be populated.');
    expect(screen.getByText('Must be a valid boolean.')).toBeTruthy();
    expect(screen.getByText('Parent element is not found.')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Populate dataset' })).toBeTruthy();
  });

  it('shows other failures as a notice and keeps the form', async () => {
    const corpus = makeCorpus();
    const dataset = makeDataset(corpus);
    datasetServer(corpus, [dataset], {
      [`POST /datasets/${dataset.id}/populate/`]: () =>
        apiError(409, [{ attr: null, detail: 'This dataset is being populated.' }]),
    });
    const user = userEvent.setup();
    open(corpus, { filters: { type: 'page' } });
    await screen.findByLabelText('train');
    await user.click(screen.getByRole('button', { name: 'Populate' }));
    expect(
      await screen.findByText(
        'An error occurred while populating the dataset: This dataset is being populated.',
      ),
    ).toBeTruthy();
    expect(screen.getByLabelText('train')).toBeTruthy();
  });

  it('says when the datasets cannot be read', async () => {
    const corpus = makeCorpus();
    datasetServer(corpus, () => apiError(500, [{ attr: null, detail: 'Boom' }]));
    open(corpus);
    const messages = await screen.findAllByText(
      'An error occurred fetching datasets for this corpus.',
    );
    expect(messages.length).toBe(2);
  });
});
