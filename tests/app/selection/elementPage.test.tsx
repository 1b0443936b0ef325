// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { elementsApi, json, makeCorpus, makeElement } from '../support/elementsApi';
import { isolateElementPageTests } from '../support/elementPage';
import { openElement } from '../support/elementMenu';
import { resetSelectionEachTest } from './harness';

isolateElementPageTests();
resetSelectionEachTest();

describe('The selection toggle of the element page', () => {
  it('selects the element shown and sends it to the server, then unselects it', async () => {
    const corpus = makeCorpus();
    const folio = makeElement(corpus, { name: 'Folio 7', type: 'page' });
    const api = elementsApi({
      corpus,
      elements: [folio],
      overrides: {
        'POST /elements/selection/': () => json(204, null),
        'DELETE /elements/selection/': () => json(204, null),
      },
    });
    const user = userEvent.setup();
    openElement(folio.id);
    const toggle = await screen.findByRole('button', { name: 'Select Folio 7' });
    expect(toggle.getAttribute('aria-pressed')).toBe('false');

    await user.click(toggle);
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    expect(toggle.textContent).toBe('Selected');
    await waitFor(() =>
      expect(
        api.calls
          .filter((call) => call.method === 'POST' && call.path === '/elements/selection/')
          .map((call) => call.body),
      ).toEqual([{ ids: [folio.id] }]),
    );

    await user.click(toggle);
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    await waitFor(() =>
      expect(
        api.calls
          .filter((call) => call.method === 'DELETE' && call.path === '/elements/selection/')
          .map((call) => call.body),
      ).toEqual([{ id: folio.id }]),
    );
  });

  it('is unavailable to anonymous visitors, saying why', async () => {
    const corpus = makeCorpus({ rights: ['read'] });
    const folio = makeElement(corpus, { name: 'Folio 8', type: 'page' });
    elementsApi({ corpus, elements: [folio] });
    const user = userEvent.setup();
    openElement(folio.id, null);
    const toggle = await screen.findByRole('button', { name: 'Select Folio 8' });
    expect(toggle.getAttribute('aria-disabled')).toBe('true');
    expect(toggle.title).toBe('Log in to select elements');
    await user.click(toggle);
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
  });
});
