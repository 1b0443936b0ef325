import { expect, it } from 'vitest';
import { Client, describeEachDialect } from './harness';
import { makeCast, PROJECT_ROLES, UNVERIFIED, type Cast } from './actors';
import {
  NOT_AUTHENTICATED,
  NOT_FOUND,
  UNKNOWN_ID,
  UUID,
  denied,
  validation,
} from './expectedErrors';
import { LAST_GROUP_ADMIN } from '../../server/services/groups/members';

const ENTERPRISE = { FOLIA_FEATURES: 'enterprise', FOLIA_SECRET_KEY: 'b4'.repeat(32) };
const NOT_GROUP_ADMIN = denied('You do not have admin access to this group.');
const ROLES = { ...PROJECT_ROLES, member: { displayName: 'Member' }, unverified: UNVERIFIED };
type GroupRole = keyof typeof ROLES;

describeEachDialect(
  'Groups',
  ({ t }) => {
    let cast: Cast<GroupRole>;
    const as = (role: GroupRole | 'anonymous') =>
      new Client(t().app, role === 'anonymous' ? null : cast[role].token);

    /** A group made by the owner, with `member` at level 10. */
    async function makeGroup(name: string): Promise<{ id: string; memberEntry: string }> {
      const created = await as('owner').post('groups/', { name });
      expect(created.statusCode).toBe(201);
      const id = created.json().id as string;
      const added = await as('owner').post(`group/${id}/members/`, {
        user_email: cast.member.email,
        level: 10,
      });
      expect(added.statusCode).toBe(201);
      return { id, memberEntry: added.json().id };
    }

    it('are created by verified users, who become their admin, and listed to members', async () => {
      cast = await makeCast(t().app, ROLES);
      const created = await as('owner').post('groups/', { name: '  Transcribers ' });
      expect(created.statusCode).toBe(201);
      const group = created.json();
      expect(group).toEqual({
        id: expect.stringMatching(UUID),
        name: 'Transcribers',
        level: 100,
        members_count: 1,
        created: expect.any(String),
        updated: expect.any(String),
      });
      const retrieved = await as('owner').get(`group/${group.id}/`);
      expect(retrieved.json()).toEqual(group);
      const listed = await as('owner').get('groups/');
      expect(listed.json()).toMatchObject({ count: 1, results: [group] });
      // Nobody else sees it; a site admin sees every group, without a level of their own.
      expect((await as('outsider').get('groups/')).json()).toMatchObject({ count: 0 });
      const seen = (await as('siteAdmin').get('groups/')).json();
      expect(seen.results).toContainEqual({ ...group, level: null });

      const members = await as('owner').get(`group/${group.id}/members/`);
      expect(members.json()).toEqual({
        count: 1,
        number: 1,
        next: null,
        previous: null,
        results: [
          {
            id: expect.stringMatching(UUID),
            level: 100,
            created: expect.any(String),
            user: { id: cast.owner.id, email: cast.owner.email, display_name: 'Owner' },
          },
        ],
      });
    });

    it('refuses anonymous and unverified creators, and blank or missing names', async () => {
      expect((await as('anonymous').get('groups/')).json()).toEqual(NOT_AUTHENTICATED);
      const anonymous = await as('anonymous').post('groups/', { name: 'X' });
      expect(anonymous.statusCode).toBe(401);
      const unverified = await as('unverified').post('groups/', { name: 'X' });
      expect(unverified.statusCode).toBe(403);
      expect(unverified.json()).toEqual(
        denied('You must verify your email address to perform this action.'),
      );
      const blank = await as('owner').post('groups/', { name: '   ' });
      expect(blank.statusCode).toBe(400);
      expect(blank.json()).toEqual(validation('name', 'This field may not be blank.', 'blank'));
      const missing = await as('owner').post('groups/', {});
      expect(missing.json()).toEqual(validation('name', 'This field is required.', 'required'));
      const long = await as('owner').post('groups/', { name: 'x'.repeat(101) });
      expect(long.json()).toEqual(
        validation('name', 'Ensure this field has no more than 100 characters.', 'max_length'),
      );
      const notJson = await as('owner').post('groups/', '{"name": ');
      expect(notJson.statusCode).toBe(400);
      const list = await as('owner').post('groups/', [{ name: 'X' }]);
      expect(list.statusCode).toBe(400);
      const count = await t()
        .app.db.selectFrom('groups')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('name', '=', 'X')
        .executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(0);
    });

    it('are renamed and deleted by their admins only; others do not see them', async () => {
      const { id } = await makeGroup('Editors');
      const renamed = await as('owner').patch(`group/${id}/`, { name: 'Proofreaders' });
      expect(renamed.statusCode).toBe(200);
      expect(renamed.json()).toMatchObject({ name: 'Proofreaders', members_count: 2 });
      // A member sees it and is told they may not change it.
      expect((await as('member').get(`group/${id}/`)).json()).toMatchObject({ level: 10 });
      const byMember = await as('member').patch(`group/${id}/`, { name: 'Mine' });
      expect(byMember.statusCode).toBe(403);
      expect(byMember.json()).toEqual(NOT_GROUP_ADMIN);
      expect((await as('member').delete(`group/${id}/`)).json()).toEqual(NOT_GROUP_ADMIN);
      // A non-member is told it does not exist, whatever they ask.
      for (const answer of [
        await as('outsider').get(`group/${id}/`),
        await as('outsider').patch(`group/${id}/`, { name: 'Mine' }),
        await as('outsider').delete(`group/${id}/`),
        await as('outsider').get(`group/${id}/members/`),
        await as('outsider').post(`group/${id}/members/`, {
          user_email: cast.outsider.email,
          level: 100,
        }),
        await as('owner').get(`group/${UNKNOWN_ID}/`),
        await as('owner').get('group/not-a-uuid/'),
        await as('owner').patch('group/not-a-uuid/', { name: 'x' }),
      ]) {
        expect(answer.statusCode).toBe(404);
        expect(answer.json()).toEqual(NOT_FOUND);
      }
      const blank = await as('owner').patch(`group/${id}/`, { name: '' });
      expect(blank.json()).toEqual(validation('name', 'This field may not be blank.', 'blank'));
      const notJson = await as('owner').patch(`group/${id}/`, 'nope');
      expect(notJson.statusCode).toBe(400);
      expect((await as('owner').get(`group/${id}/`)).json().name).toBe('Proofreaders');
      // A site admin manages any group.
      const byAdmin = await as('siteAdmin').patch(`group/${id}/`, { name: 'Renamed by admin' });
      expect(byAdmin.statusCode).toBe(200);

      const deleted = await as('owner').delete(`group/${id}/`);
      expect(deleted.statusCode).toBe(204);
      expect((await as('owner').get(`group/${id}/`)).statusCode).toBe(404);
      const left = await t()
        .app.db.selectFrom('group_members')
        .select('id')
        .where('group_id', '=', id)
        .execute();
      expect(left).toEqual([]);
    });

    it('have members added by e-mail by their admins, at member or admin level', async () => {
      const { id } = await makeGroup('Readers');
      const unknown = await as('owner').post(`group/${id}/members/`, {
        user_email: 'nobody@example.com',
        level: 10,
      });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json()).toEqual(
        validation('user_email', 'No user with this email address exists.', 'does_not_exist'),
      );
      const badEmail = await as('owner').post(`group/${id}/members/`, {
        user_email: 'not an address',
        level: 10,
      });
      expect(badEmail.json()).toEqual(validation('user_email', 'Enter a valid email address.'));
      const badLevel = await as('owner').post(`group/${id}/members/`, {
        user_email: cast.guest.email,
        level: 50,
      });
      expect(badLevel.json()).toEqual(
        validation('level', '"50" is not a valid choice.', 'invalid_choice'),
      );
      const twice = await as('owner').post(`group/${id}/members/`, {
        user_email: cast.member.email.toUpperCase(),
        level: 100,
      });
      expect(twice.statusCode).toBe(409);
      expect(twice.json()).toMatchObject({
        errors: [{ code: 'conflict', detail: 'This user is already a member of this group.' }],
      });
      const byMember = await as('member').post(`group/${id}/members/`, {
        user_email: cast.guest.email,
        level: 10,
      });
      expect(byMember.json()).toEqual(NOT_GROUP_ADMIN);
      const added = await as('owner').post(`group/${id}/members/`, {
        user_email: cast.guest.email,
        level: 100,
      });
      expect(added.statusCode).toBe(201);
      expect(added.json()).toMatchObject({ level: 100, user: { id: cast.guest.id } });
      const members = (await as('member').get(`group/${id}/members/`)).json();
      expect(members.count).toBe(3);
      expect(members.results.map((m: { level: number }) => m.level)).toEqual([100, 100, 10]);
    });

    it('keep their last admin, who can neither leave nor be demoted; members may leave', async () => {
      const { id, memberEntry } = await makeGroup('Solo');
      const members = (await as('owner').get(`group/${id}/members/`)).json();
      const ownerEntry = members.results.find(
        (m: { user: { id: string } }) => m.user.id === cast.owner.id,
      ).id as string;
      const demoted = await as('owner').patch(`group/${id}/member/${ownerEntry}/`, { level: 10 });
      expect(demoted.statusCode).toBe(400);
      expect(demoted.json()).toEqual(validation('level', LAST_GROUP_ADMIN, 'last_admin'));
      const leaving = await as('owner').delete(`group/${id}/member/${ownerEntry}/`);
      expect(leaving.json()).toEqual(
        validation('non_field_errors', LAST_GROUP_ADMIN, 'last_admin'),
      );
      // A member may not promote themself, but may leave.
      const promoted = await as('member').patch(`group/${id}/member/${memberEntry}/`, {
        level: 100,
      });
      expect(promoted.json()).toEqual(NOT_GROUP_ADMIN);
      const badLevel = await as('owner').patch(`group/${id}/member/${memberEntry}/`, {
        level: 'admin',
      });
      expect(badLevel.statusCode).toBe(400);
      // Another group's entry, or no UUID, names nothing under this group.
      const other = await makeGroup('Other');
      expect(
        (await as('owner').patch(`group/${id}/member/${other.memberEntry}/`, { level: 100 }))
          .statusCode,
      ).toBe(404);
      expect((await as('owner').delete(`group/${id}/member/nope/`)).statusCode).toBe(404);
      // Promoted by the admin, the member may let the first admin go.
      const promotedByAdmin = await as('owner').patch(`group/${id}/member/${memberEntry}/`, {
        level: 100,
      });
      expect(promotedByAdmin.json()).toMatchObject({ level: 100 });
      expect((await as('owner').delete(`group/${id}/member/${ownerEntry}/`)).statusCode).toBe(204);
      expect((await as('owner').get(`group/${id}/`)).statusCode).toBe(404);
      const left = await as('member').delete(`group/${id}/member/${memberEntry}/`);
      expect(left.json()).toEqual(validation('non_field_errors', LAST_GROUP_ADMIN, 'last_admin'));
    });
  },
  ENTERPRISE,
);

describeEachDialect('Groups outside the enterprise edition', ({ t }) => {
  it('do not exist', async () => {
    const cast = await makeCast(t().app, { owner: { displayName: 'Owner' } });
    const owner = new Client(t().app, cast.owner.token);
    for (const answer of [
      await owner.get('groups/'),
      await owner.post('groups/', { name: 'Nope' }),
      await owner.get(`group/${UNKNOWN_ID}/`),
    ]) {
      expect(answer.statusCode).toBe(404);
    }
  });
});
