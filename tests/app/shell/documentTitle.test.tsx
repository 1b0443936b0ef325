// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { act, configure, waitFor } from '@testing-library/react';
import { Outlet, createRoute } from '@tanstack/react-router';
import { elementKeys } from '@/api/elements';
import { ScreenTitle } from '@/app/ScreenTitle';
import { useDocumentTitle } from '@/lib/documentTitle';
import { isolateEachTest, makeRoot, renderRoutes, routesUnder } from '../support/harness';
import { elementsApi, makeCorpus, makeElement, makeUser, renderApp } from '../support/elementsApi';

isolateEachTest();
// The machine may be busy: the page's reads go through IndexedDB before anything shows.
configure({ asyncUtilTimeout: 10_000 });

describe('the browser tab title', () => {
  it('names the element and its project on an element page, and follows a rename', async () => {
    const corpus = makeCorpus({ name: 'Register 1742' });
    const folio = makeElement(corpus, { name: '0005' });
    elementsApi({ corpus, elements: [folio] });
    const { queryClient } = renderApp(`/element/${folio.id}`, makeUser());
    await waitFor(() => expect(document.title).toBe('0005 — Register 1742 — Folia'));

    act(() =>
      queryClient.setQueryData(elementKeys.detail(folio.id), { ...folio, name: '0005 bis' }),
    );
    await waitFor(() => expect(document.title).toBe('0005 bis — Register 1742 — Folia'));
  });

  it('names the screen, unless the page names what it shows', async () => {
    const root = makeRoot();
    const withScreenTitle = root.update({
      component: () => (
        <>
          <ScreenTitle />
          <Outlet />
        </>
      ),
    } as never) as typeof root;
    const projects = createRoute({
      getParentRoute: () => withScreenTitle,
      path: '/browse/',
      staticData: { name: 'corpus-list' },
      component: () => <p>Projects</p>,
    });
    const element = createRoute({
      getParentRoute: () => withScreenTitle,
      path: '/element/$id',
      staticData: { name: 'element-details' },
      component: function Folio() {
        useDocumentTitle(['0005', 'Register 1742']);
        return <p>0005</p>;
      },
    });
    const { router } = renderRoutes(routesUnder(withScreenTitle, [projects, element]), {
      url: '/browse/',
    });
    await waitFor(() => expect(document.title).toBe('Projects — Folia'));
    await act(() => router.navigate({ to: '/element/$id', params: { id: 'x' } }));
    await waitFor(() => expect(document.title).toBe('0005 — Register 1742 — Folia'));
    await act(() => router.navigate({ to: '/browse/' }));
    await waitFor(() => expect(document.title).toBe('Projects — Folia'));
  });
});
