// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { configure, screen, waitFor, within } from '@testing-library/react';
import { setDisplaySetting } from '@/features/elements/displaySettings';
import {
  elementsApi,
  makeChildren,
  makeCorpus,
  makeElement,
  makeUser,
  renderApp,
} from '../support/elementsApi';
import { isolateElementPageTests } from '../support/elementPage';

isolateElementPageTests();
// The machine may be busy: the page's reads go through IndexedDB before anything shows.
configure({ asyncUtilTimeout: 10_000 });

/** Lets every request the page would still send go out, and their answers be read. */
async function settle() {
  for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('children requests of an element page', () => {
  it('asks for a folder’s children once, with the annotations tree on as it is by default', async () => {
    setDisplaySetting('annotationsTree', true);
    const corpus = makeCorpus();
    const folder = makeElement(corpus, { name: 'Register 1742', type: 'folder' });
    const pages = makeChildren(corpus, 3, (i) => ({ name: `Folio ${i + 1}`, type: 'page' }));
    const api = elementsApi({
      corpus,
      elements: [folder, ...pages],
      children: { [folder.id]: pages },
    });
    renderApp(`/element/${folder.id}`, makeUser());

    const list = await screen.findByRole('list', { name: 'Child elements' });
    expect(within(list).getAllByRole('article')).toHaveLength(3);
    await settle();
    expect(api.childrenCalls(folder.id)).toHaveLength(1);
    // The folder tree is off: no tree came and went.
    expect(screen.queryByRole('navigation', { name: 'Children tree' })).toBeNull();
  });

  it('still shows the annotations tree of an element that is no folder', async () => {
    setDisplaySetting('annotationsTree', true);
    const corpus = makeCorpus();
    const act = makeElement(corpus, { name: 'Act of sale', type: 'act' });
    const lines = makeChildren(corpus, 2);
    elementsApi({ corpus, elements: [act, ...lines], children: { [act.id]: lines } });
    renderApp(`/element/${act.id}`, makeUser());
    const tree = await screen.findByRole('navigation', { name: 'Children tree' });
    await waitFor(() => expect(within(tree).getByRole('link', { name: 'Line 2' })).toBeTruthy());
  });
});
