/**
 * The selection page as the app mounts it (the real route, its guard and the datasets and
 * classifications plugged in), the navbar's counter fed as the app's root feeds it, and a fake
 * server that keeps a selection and answers the bulk calls a test gives it.
 */
import { beforeEach } from 'vitest';
import { Outlet, createRootRouteWithContext } from '@tanstack/react-router';
import type { RouterContext } from '@/app/guard';
import type { Corpus, ElementListItem, User } from '@/api/types';
import { Notifications } from '@/components/notifications/Notifications';
import { SelectionCounter } from '@/features/shell/SelectionCounter';
import { useSelectionSummary } from '@/features/selection/useSelectionSummary';
import { localDb } from '@/offline/db';
import { localSelection } from '@/offline/selectionRuntime';
import { Route as selectedRoute } from '@/routes/elements/selected';
import { Route as navigationRoute } from '@/routes/browse/$corpusId';
import {
  APP_STALE_TIME,
  json,
  pageOf,
  renderRoutes,
  routesUnder,
  type Call,
  type Handler,
} from '../support/harness';
import { SERVER_INFO, fakeServer } from '../navigation/harness';

export { apiError, isolateEachTest, json, type Call, type Handler } from '../support/harness';
export { makeCorpus, makeElement, makeUser, uuid, TYPES } from '../navigation/harness';

function Counter() {
  return <SelectionCounter {...useSelectionSummary()} />;
}

const root = createRootRouteWithContext<RouterContext>()({
  component: () => (
    <>
      <Counter />
      <Outlet />
      <Notifications />
    </>
  ),
});
const selected = selectedRoute.update({
  id: '/elements/selected',
  path: '/elements/selected',
  getParentRoute: () => root,
} as never);
const navigation = navigationRoute.update({
  id: '/browse/$corpusId',
  path: '/browse/$corpusId',
  getParentRoute: () => root,
} as never);
const routeTree = routesUnder(root, [selected, navigation]);

/** Each test starts with nobody's selection on this device. */
export function resetSelectionEachTest(): void {
  beforeEach(async () => {
    await localSelection.open(null);
    await localDb.selection.clear();
    await localDb.selectionClears.clear();
  });
}

export interface SelectionServerOptions {
  corpora: Corpus[];
  /** Elements per project id, for the folder pickers and the navigation page. */
  elements?: Record<string, ElementListItem[]>;
  classes?: Record<string, { id: string; name: string }[]>;
  /** The server's selection when the page opens, in the order it lists it. */
  selected?: ElementListItem[];
  overrides?: Record<string, Handler>;
  /** Holds the answer to the selection read until it is called. */
  holdRead?: Promise<void>;
}

/** A server with a selection: GET, POST and DELETE /elements/selection/ act on `selected`. */
export function selectionServer(options: SelectionServerOptions) {
  const selected = [...(options.selected ?? [])];
  const everything = () => Object.values(options.elements ?? {}).flat();
  const withName = (element: ElementListItem): ElementListItem => {
    const corpus = options.corpora.find((candidate) => candidate.id === element.corpus.id);
    return { ...element, corpus: { id: element.corpus.id, name: corpus?.name } };
  };
  const server = fakeServer({
    corpora: options.corpora,
    elements: options.elements,
    classes: options.classes,
    overrides: {
      ...options.overrides,
      'GET /elements/selection/': async (call: Call) => {
        await options.holdRead;
        const page = Number(call.query.get('page') ?? '1');
        const size = Number(call.query.get('page_size') ?? '20');
        const link = (n: number) => `http://localhost/api/v1/elements/selection/?page=${n}`;
        return json(200, pageOf(selected.map(withName), page, size, link));
      },
      'POST /elements/selection/': (call: Call) => {
        for (const id of (call.body as { ids: string[] }).ids) {
          const element = everything().find((candidate) => candidate.id === id);
          if (element && !selected.some((candidate) => candidate.id === id)) selected.push(element);
        }
        return json(204, null);
      },
      'DELETE /elements/selection/': (call: Call) => {
        const id = (call.body as { id?: string } | null)?.id;
        const kept = id ? selected.filter((element) => element.id !== id) : [];
        selected.splice(0, selected.length, ...kept);
        return json(204, null);
      },
    },
  });
  return {
    ...server,
    /** Selected from another browser or tab: the server knows, this page does not yet. */
    selectElsewhere: (element: ElementListItem) => selected.push(element),
    unselectElsewhere: (element: ElementListItem) => {
      const index = selected.findIndex((candidate) => candidate.id === element.id);
      if (index >= 0) selected.splice(index, 1);
    },
    /** The server's selection now, by name. */
    selectedNames: () => selected.map((element) => element.name),
    callsTo: (method: string, path: string) =>
      server.calls.filter((call) => call.method === method && call.path === path),
  };
}

export function openSelectionPage(user: User | null) {
  return renderRoutes(routeTree, {
    url: '/elements/selected',
    user,
    info: SERVER_INFO,
    staleTime: APP_STALE_TIME,
  });
}

export function openNavigation(corpusId: string, user: User | null) {
  return renderRoutes(routeTree, {
    url: `/browse/${corpusId}?type=page`,
    user,
    info: SERVER_INFO,
    staleTime: APP_STALE_TIME,
  });
}
