// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { configure, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route as settingsRoute } from '@/routes/corpus/$corpusId/index';
import type { AllowedMetadata, Corpus } from '@/api/types';
import {
  APP_STALE_TIME,
  corpusWith,
  idSequence,
  isolateEachTest,
  json,
  makeInfo,
  makeRoot,
  pageOf,
  renderRoutes,
  routesUnder,
  stubFetch,
  userWith,
} from '../support/harness';

// The first page of a run waits for the route modules to load, slow on a busy machine.
configure({ asyncUtilTimeout: 10_000 });

const uuid = idSequence('a100');
const me = userWith(uuid(), { display_name: 'Ada Lovelace' });

function project(rights: Corpus['rights']): Corpus {
  return corpusWith({ id: uuid(), name: 'Letters', public: false, types: [], rights });
}

/** The project, its members (only me) and its allowed metadata, as the API answers them. */
function fakeServer(corpus: Corpus) {
  const allowed: AllowedMetadata[] = [];
  const link = (page: number) => `http://localhost/api/v1/x/?page=${page}`;
  return stubFetch((call) => {
    if (call.path === `/corpus/${corpus.id}/`) return json(200, corpus);
    if (call.path === `/corpus/${corpus.id}/memberships/`) {
      const member = { id: uuid(), level: 100, created: '2024-05-01T10:00:00Z', user: me };
      return json(200, pageOf([member], 1, 20, link));
    }
    if (call.path === `/corpus/${corpus.id}/allowed-metadata/`) {
      if (call.method === 'POST') {
        const entry = { id: uuid(), ...(call.body as { name: string; type: string }) };
        allowed.push(entry);
        return json(201, entry);
      }
      return json(200, pageOf(allowed, 1, 20, link));
    }
    return json(500, { type: 'server_error', errors: [] });
  });
}

function renderSettings(corpus: Corpus) {
  const root = makeRoot();
  const route = settingsRoute.update({
    id: '/corpus/$corpusId/',
    path: '/corpus/$corpusId/',
    getParentRoute: () => root,
  } as never);
  return renderRoutes(routesUnder(root, [route as never]), {
    url: `/corpus/${corpus.id}/`,
    info: makeInfo(),
    user: me,
    staleTime: APP_STALE_TIME,
  });
}

isolateEachTest();

describe('allowed metadata on the project settings page', () => {
  it('are listed and added by a project admin who is no site admin', async () => {
    const corpus = project(['read', 'write', 'admin']);
    const server = fakeServer(corpus);
    renderSettings(corpus);
    const section = within(
      (await screen.findByRole('heading', { name: 'Allowed metadata' })).closest('section')!,
    );
    await section.findByText('There are no allowed metadata for this project.');
    await userEvent.type(section.getByRole('textbox', { name: 'Name' }), 'Date of writing');
    await userEvent.selectOptions(section.getByRole('combobox', { name: 'Type' }), 'Date');
    await userEvent.click(section.getByRole('button', { name: 'Add' }));
    expect(await section.findByRole('cell', { name: 'Date of writing' })).toBeTruthy();
    expect(server.callsTo('POST', `/corpus/${corpus.id}/allowed-metadata/`)[0]?.body).toEqual({
      name: 'Date of writing',
      type: 'date',
    });
  });

  it('are not offered to a member without the admin right', async () => {
    const corpus = project(['read', 'write']);
    const server = fakeServer(corpus);
    renderSettings(corpus);
    await screen.findByText('You must have an admin access to this project.');
    expect(screen.queryByRole('heading', { name: 'Allowed metadata' })).toBeNull();
    expect(server.calls.some((call) => call.path.endsWith('/allowed-metadata/'))).toBe(false);
  });
});
