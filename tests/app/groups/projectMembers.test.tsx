// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { EditCorpusPage } from '@/features/corpora/EditCorpusPage';
import type { GroupMembership } from '@/api/types';
import {
  SERVER_INFO,
  fakeServer,
  isolateEachTest,
  makeCorpus,
  makeMembership,
  makeUser,
  renderPage,
} from '../corpora/harness';
import { json, pageOf, type Call } from '../support/harness';

const me = makeUser({ display_name: 'Ada Lovelace', email: 'ada@example.org' });
const SCRIBES = { id: 'b1b2c3d4-0000-4000-8000-000000000001', name: 'Scribes' };
const READERS = { id: 'b1b2c3d4-0000-4000-8000-000000000002', name: 'Readers' };
const ENTERPRISE = { ...SERVER_INFO, features: { ...SERVER_INFO.features, enterprise: true } };

const group = (entry: { id: string; name: string }, level: number): GroupMembership => ({
  id: `c1b2c3d4-0000-4000-8000-${entry.id.slice(-12)}`,
  level,
  created: '2024-05-01T10:00:00Z',
  group: entry,
});

isolateEachTest();

/** The project's members (the fake's users, then its groups) and the caller's groups. */
function renderMembers(enterprise: boolean, groups: GroupMembership[] = []) {
  const corpus = makeCorpus({ name: 'Letters' });
  const server = fakeServer({
    corpora: [corpus],
    members: { [corpus.id]: [makeMembership(me, 100)] },
    overrides: {
      [`GET /corpus/${corpus.id}/memberships/`]: () => {
        const users = server.members[corpus.id] ?? [];
        const link = (n: number) => `http://localhost/api/v1/memberships/?page=${n}`;
        return json(200, pageOf([...users, ...groups], 1, 20, link));
      },
      'GET /groups/': () =>
        json(
          200,
          pageOf([SCRIBES, READERS], 1, 100, () => ''),
        ),
      'POST /memberships/': (call: Call) => {
        const body = call.body as { group_id?: string; level: number };
        if (!body.group_id) return null;
        const added = group(body.group_id === SCRIBES.id ? SCRIBES : READERS, body.level);
        groups.push(added);
        return json(201, added);
      },
    },
  });
  renderPage({
    path: '/corpus/$corpusId',
    url: `/corpus/${corpus.id}`,
    page: () => <EditCorpusPage corpusId={corpus.id} />,
    user: me,
    info: enterprise ? ENTERPRISE : SERVER_INFO,
  });
  return server;
}

const membersSection = () => screen.getByRole('region', { name: 'Members' });

describe('Project members in the enterprise edition', () => {
  it('lists a group by name, linked to its page, with its role', async () => {
    renderMembers(true, [group(SCRIBES, 50)]);
    const link = await within(await screen.findByRole('region', { name: 'Members' })).findByRole(
      'link',
      { name: 'Scribes' },
    );
    expect(link.getAttribute('href')).toBe(`/group/${SCRIBES.id}`);
    const row = link.closest('tr')!;
    expect(within(row).getByText('Group')).toBeTruthy();
    expect(
      (within(row).getByRole('combobox', { name: 'Role of Scribes' }) as HTMLSelectElement).value,
    ).toBe('50');
    expect(within(row).getByRole('button', { name: 'Remove Scribes' })).toBeTruthy();
  });

  it("adds one of the caller's groups with a role", async () => {
    const server = renderMembers(true);
    const form = await screen.findByRole('form', { name: 'Add a group' });
    const choice = within(form).getByRole('combobox', { name: 'Group' });
    await waitFor(() => expect(within(choice).getAllByRole('option')).toHaveLength(3));
    await userEvent.selectOptions(choice, 'Readers');
    await userEvent.selectOptions(
      within(form).getByRole('combobox', { name: 'Role' }),
      'Contributor',
    );
    await userEvent.click(within(form).getByRole('button', { name: 'Add group' }));
    await within(membersSection()).findByRole('link', { name: 'Readers' });
    expect(server.callsTo('POST', '/memberships/').at(-1)!.body).toEqual({
      corpus_id: expect.any(String),
      group_id: READERS.id,
      level: 50,
    });
    expect(
      await screen.findByText('The group Readers has been added to the project as contributor.'),
    ).toBeTruthy();
  });

  it('offers no groups in the community edition', async () => {
    const server = renderMembers(false);
    await within(await screen.findByRole('region', { name: 'Members' })).findByText('Ada Lovelace');
    expect(screen.queryByRole('form', { name: 'Add a group' })).toBeNull();
    expect(server.callsTo('GET', '/groups/')).toEqual([]);
  });
});
