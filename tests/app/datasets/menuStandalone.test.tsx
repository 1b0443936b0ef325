// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DatasetsMenu } from '@/features/datasets/DatasetsMenuSection';
import {
  fakeDatasetsApi,
  isolateEachTest,
  makeCorpus,
  makeDataset,
  renderModal,
} from './pageHarness';

isolateEachTest();

describe('the Datasets menu of pages without the element menu', () => {
  it("lists the project's datasets and creates one", async () => {
    const corpus = makeCorpus('contributor');
    const dataset = makeDataset(corpus, { name: 'Layout', state: 'building' });
    fakeDatasetsApi({ corpus, datasets: [dataset] });
    const user = userEvent.setup();
    renderModal(() => <DatasetsMenu corpusId={corpus.id} />);

    await user.click(await screen.findByRole('button', { name: 'Datasets' }));
    const section = await screen.findByRole('group', { name: 'Datasets' });
    const link = await within(section).findByRole('menuitem', { name: /Layout/ });
    expect(link.textContent).toBe('LayoutBuilding');
    expect(link.getAttribute('href')).toBe(`/dataset/${dataset.id}`);

    const create = screen.getByRole('menuitem', { name: 'Create a dataset' });
    await waitFor(() => expect(create.getAttribute('aria-disabled')).toBeNull());
    await user.click(create);
    expect(await screen.findByRole('dialog', { name: 'Create a dataset' })).toBeTruthy();
  });

  it('tells a guest why creating a dataset is not allowed', async () => {
    const corpus = makeCorpus('guest');
    fakeDatasetsApi({ corpus });
    const user = userEvent.setup();
    renderModal(() => <DatasetsMenu corpusId={corpus.id} />);
    await user.click(await screen.findByRole('button', { name: 'Datasets' }));
    expect(await screen.findByText('No dataset available')).toBeTruthy();
    await waitFor(() =>
      expect(screen.getByRole('menuitem', { name: 'Create a dataset' }).getAttribute('title')).toBe(
        'You must have a contributor access to this project',
      ),
    );
  });
});
