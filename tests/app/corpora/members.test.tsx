// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { EditCorpusPage } from '@/features/corpora/EditCorpusPage';
import type { Corpus, UserMembership as Membership } from '@/api/types';
import {
  fakeServer,
  isolateEachTest,
  makeCorpus,
  makeMembership,
  makeUser,
  renderPage,
} from './harness';

const me = makeUser({ display_name: 'Ada Lovelace', email: 'ada@example.org' });
const grace = {
  id: 'a1b2c3d4-0000-4000-8000-000000000001',
  email: 'grace@example.org',
  display_name: 'Grace Hopper',
};
const alan = {
  id: 'a1b2c3d4-0000-4000-8000-000000000002',
  email: 'alan@example.org',
  display_name: 'Alan Turing',
};

let corpus: Corpus;

function renderMembers(members: Membership[]) {
  corpus = makeCorpus({ name: 'Letters' });
  const server = fakeServer({
    corpora: [corpus],
    members: { [corpus.id]: members },
    accounts: [grace, alan],
  });
  renderPage({
    path: '/corpus/$corpusId',
    url: `/corpus/${corpus.id}`,
    page: () => <EditCorpusPage corpusId={corpus.id} />,
    user: me,
  });
  return server;
}

const membersSection = () => screen.getByRole('region', { name: 'Members' });
const row = (name: string) =>
  within(membersSection())
    .getAllByRole('row')
    .find((candidate) => within(candidate).queryByText(name) !== null);
const roleOf = (name: string) =>
  screen.getByRole('combobox', { name: `Role of ${name}` }) as HTMLSelectElement;

isolateEachTest();

describe('Project members', () => {
  it('lists the members with their e-mail and role', async () => {
    renderMembers([makeMembership(me, 100), makeMembership(alan, 50)]);

    await screen.findByRole('combobox', { name: 'Role of Alan Turing' });
    expect(within(row('Alan Turing')!).getByText('alan@example.org')).toBeTruthy();
    expect(roleOf('Alan Turing').selectedOptions[0]?.textContent).toBe('Contributor');
    expect(roleOf('Ada Lovelace').selectedOptions[0]?.textContent).toBe('Admin');
    expect(within(membersSection()).getByText('2 members')).toBeTruthy();
  });

  it('adds a member by e-mail with the chosen role', async () => {
    const server = renderMembers([makeMembership(me, 100)]);
    const form = await screen.findByRole('form', { name: 'Add a member' });

    await userEvent.type(
      within(form).getByRole('textbox', { name: 'E-mail address' }),
      'grace@example.org',
    );
    await userEvent.selectOptions(
      within(form).getByRole('combobox', { name: 'Role' }),
      'Contributor',
    );
    await userEvent.click(within(form).getByRole('button', { name: 'Add member' }));

    await screen.findByRole('combobox', { name: 'Role of Grace Hopper' });
    expect(roleOf('Grace Hopper').value).toBe('50');
    expect(server.callsTo('POST', '/memberships/')[0]?.body).toEqual({
      corpus_id: corpus.id,
      user_email: 'grace@example.org',
      level: 50,
    });
    // The notice may come a moment after the list shows the new member.
    expect((await screen.findByRole('status')).textContent).toContain(
      'Grace Hopper has been added to the project as contributor.',
    );
    expect(
      (within(form).getByRole('textbox', { name: 'E-mail address' }) as HTMLInputElement).value,
    ).toBe('');
  });

  it('shows the API message for an unknown e-mail and for an existing member', async () => {
    renderMembers([makeMembership(me, 100), makeMembership(alan, 10)]);
    const form = await screen.findByRole('form', { name: 'Add a member' });
    const email = within(form).getByRole('textbox', { name: 'E-mail address' });

    await userEvent.type(email, 'nobody@example.org');
    await userEvent.click(within(form).getByRole('button', { name: 'Add member' }));
    await waitFor(() => expect(email.getAttribute('aria-invalid')).toBe('true'));
    expect(within(form).getByText('No user with this email address exists.')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain(
      'No user with this email address exists.',
    );

    await userEvent.clear(email);
    await userEvent.type(email, 'alan@example.org');
    await userEvent.click(within(form).getByRole('button', { name: 'Add member' }));
    expect(
      await within(form).findByText('This user is already a member of this project.'),
    ).toBeTruthy();
  });

  it('changes a member role inline', async () => {
    const alanMembership = makeMembership(alan, 10);
    const server = renderMembers([makeMembership(me, 100), alanMembership]);
    await userEvent.selectOptions(
      await screen.findByRole('combobox', { name: 'Role of Alan Turing' }),
      'Admin',
    );

    expect(await screen.findByText('Alan Turing is now admin of the project.')).toBeTruthy();
    expect(server.callsTo('PATCH', `/membership/${alanMembership.id}/`)[0]?.body).toEqual({
      level: 100,
    });
    expect(roleOf('Alan Turing').value).toBe('100');
  });

  it('refuses to downgrade the last admin with the API message', async () => {
    const mine = makeMembership(me, 100);
    const server = renderMembers([mine, makeMembership(alan, 10)]);
    await userEvent.selectOptions(
      await screen.findByRole('combobox', { name: 'Role of Ada Lovelace' }),
      'Guest',
    );

    expect((await screen.findByRole('alert')).textContent).toContain(
      'A project must keep at least one admin.',
    );
    expect(server.callsTo('PATCH', `/membership/${mine.id}/`)).toHaveLength(1);
    await waitFor(() => expect(roleOf('Ada Lovelace').value).toBe('100'));
  });

  it('removes a member after confirmation', async () => {
    const alanMembership = makeMembership(alan, 50);
    const server = renderMembers([makeMembership(me, 100), alanMembership]);
    await userEvent.click(await screen.findByRole('button', { name: 'Remove Alan Turing' }));

    const dialog = await screen.findByRole('dialog', { name: 'Remove member' });
    expect(dialog.textContent).toContain('Alan Turing (alan@example.org)');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));

    await waitFor(() =>
      expect(screen.queryByRole('combobox', { name: 'Role of Alan Turing' })).toBeNull(),
    );
    expect(server.callsTo('DELETE', `/membership/${alanMembership.id}/`)).toHaveLength(1);
    expect((await screen.findByRole('status')).textContent).toContain(
      'Alan Turing has been removed from the project.',
    );
  });

  it('keeps the last admin and shows why', async () => {
    renderMembers([makeMembership(me, 100)]);
    await userEvent.click(await screen.findByRole('button', { name: 'Remove Ada Lovelace' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Remove member' })).getByRole('button', {
        name: 'Remove',
      }),
    );

    expect((await screen.findByRole('alert')).textContent).toContain(
      'A project must keep at least one admin.',
    );
    expect(screen.getByRole('combobox', { name: 'Role of Ada Lovelace' })).toBeTruthy();
  });

  it('takes an admin who steps down off the settings', async () => {
    const mine = makeMembership(me, 100);
    const server = renderMembers([mine, makeMembership(alan, 100)]);
    const select = await screen.findByRole('combobox', { name: 'Role of Ada Lovelace' });
    // The page read the project already; from now on the server reports lowered rights.
    server.corpora[0] = { ...corpus, rights: ['read', 'write'] };
    await userEvent.selectOptions(select, 'Contributor');

    expect(await screen.findByText('You must have an admin access to this project.')).toBeTruthy();
    expect(server.callsTo('PATCH', `/membership/${mine.id}/`)[0]?.body).toEqual({ level: 50 });
  });

  it('goes back to the projects after leaving the project', async () => {
    const mine = makeMembership(me, 100);
    const server = renderMembers([mine, makeMembership(alan, 100)]);
    await userEvent.click(await screen.findByRole('button', { name: 'Remove Ada Lovelace' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove member' });
    expect(dialog.textContent).toContain('Are you sure you want to leave the project Letters?');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));

    expect((await screen.findByTestId('elsewhere')).textContent).toBe('Now at /browse/');
    expect(server.callsTo('DELETE', `/membership/${mine.id}/`)).toHaveLength(1);
    expect(screen.getByRole('status').textContent).toContain(
      'You have left the project "Letters".',
    );
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('pages through more than 20 members', async () => {
    const many = Array.from({ length: 25 }, (_, index) =>
      makeMembership(
        {
          display_name: `Member ${String(index + 1).padStart(2, '0')}`,
          email: `m${index + 1}@example.org`,
        },
        index === 0 ? 100 : 10,
      ),
    );
    const server = renderMembers(many);
    await screen.findByText('Member 20');
    expect(screen.queryByText('Member 21')).toBeNull();
    const pages = screen.getByRole('navigation', { name: 'Members pages' });
    expect(within(pages).getByText('Page 1 of 2')).toBeTruthy();
    expect(
      (within(pages).getByRole('button', { name: 'Previous' }) as HTMLButtonElement).disabled,
    ).toBe(true);

    await userEvent.click(within(pages).getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Member 25')).toBeTruthy();
    expect(screen.queryByText('Member 01')).toBeNull();
    expect(within(pages).getByText('Page 2 of 2')).toBeTruthy();
    expect(
      server.calls.some(
        (call) => call.path.endsWith('/memberships/') && call.query.get('page') === '2',
      ),
    ).toBe(true);
  });

  it('shows no pagination for 20 members or fewer', async () => {
    renderMembers([makeMembership(me, 100), makeMembership(alan, 10)]);
    await screen.findByRole('combobox', { name: 'Role of Alan Turing' });
    expect(screen.queryByRole('navigation', { name: 'Members pages' })).toBeNull();
  });
});
