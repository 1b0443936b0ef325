/**
 * Rights through groups: a group given a level on a project gives it to each of its members,
 * for as long as they are members and the group is there, on that project only.
 */
import { beforeAll, expect, it } from 'vitest';
import { Client, describeEachDialect } from './harness';
import { makeCast, type Cast } from './actors';
import { NOT_FOUND, UUID, denied, invalidPk, validation } from './expectedErrors';
import { insertElements } from './elementsFixtures';

const ENTERPRISE = { FOLIA_FEATURES: 'enterprise', FOLIA_SECRET_KEY: 'c5'.repeat(32) };
const ROLES = {
  owner: { displayName: 'Owner' },
  writer: { displayName: 'Writer' },
  reader: { displayName: 'Reader' },
  groupAdmin: { displayName: 'Group admin' },
  outsider: { displayName: 'Outsider' },
};
type Role = keyof typeof ROLES;

describeEachDialect(
  'Rights through groups',
  ({ t }) => {
    let cast: Cast<Role>;
    let projectA: string;
    let projectB: string;
    let pageA: string;
    let pageB: string;
    const as = (role: Role) => new Client(t().app, cast[role].token);

    async function project(name: string): Promise<string> {
      const created = await as('owner').post('corpus/', { name });
      expect(created.statusCode).toBe(201);
      return created.json().id;
    }

    /** A group the group admin makes, with these members at level 10. */
    async function group(name: string, members: Role[]): Promise<string> {
      const created = await as('groupAdmin').post('groups/', { name });
      const id = created.json().id as string;
      for (const role of members) {
        const added = await as('groupAdmin').post(`group/${id}/members/`, {
          user_email: cast[role].email,
          level: 10,
        });
        expect(added.statusCode).toBe(201);
      }
      return id;
    }

    /** The owner, admin of the project, gives the group a level on it. */
    async function grant(corpusId: string, groupId: string, level: number): Promise<string> {
      const owner = as('owner');
      // The owner must see the group: they join it as a member first.
      const joined = await as('groupAdmin').post(`group/${groupId}/members/`, {
        user_email: cast.owner.email,
        level: 10,
      });
      expect([201, 409]).toContain(joined.statusCode);
      const granted = await owner.post('memberships/', {
        corpus_id: corpusId,
        group_id: groupId,
        level,
      });
      expect(granted.statusCode).toBe(201);
      return granted.json().id;
    }

    const createFolder = (role: Role, corpusId: string, name: string) =>
      as(role).post('elements/create/', { corpus: corpusId, type: 'folder', name });
    const addTranscription = (role: Role, elementId: string) =>
      as(role).post(`element/${elementId}/transcriptions/`, { text: 'Read aloud' });

    beforeAll(async () => {
      cast = await makeCast(t().app, ROLES);
      projectA = await project('Project A');
      projectB = await project('Project B');
      pageA = (await insertElements(t().app, projectA, [{ name: 'Page A', type: 'page' }]))[
        'Page A'
      ]!;
      pageB = (await insertElements(t().app, projectB, [{ name: 'Page B', type: 'page' }]))[
        'Page B'
      ]!;
    });

    it("gives a contributor group's members write access to its project only", async () => {
      expect((await as('writer').get(`corpus/${projectA}/`)).statusCode).toBe(404);
      const writers = await group('Writers', ['writer']);
      await grant(projectA, writers, 50);

      const corpus = await as('writer').get(`corpus/${projectA}/`);
      expect(corpus.statusCode).toBe(200);
      expect(corpus.json().rights).toEqual(['read', 'write']);
      const listed = (await as('writer').get('corpus/')).json() as { id: string }[];
      expect(listed.map((c) => c.id)).toEqual([projectA]);
      expect((await createFolder('writer', projectA, 'By a group')).statusCode).toBe(201);
      const transcribed = await addTranscription('writer', pageA);
      expect(transcribed.statusCode).toBe(201);
      expect((await as('writer').get(`element/${pageA}/`)).json().rights).toEqual([
        'read',
        'write',
      ]);
      // Project B knows nothing of them.
      expect((await as('writer').get(`corpus/${projectB}/`)).json()).toEqual(NOT_FOUND);
      expect((await as('writer').get(`element/${pageB}/`)).statusCode).toBe(404);
      expect((await addTranscription('writer', pageB)).statusCode).toBe(404);
      const elsewhere = await createFolder('writer', projectB, 'Sneaked in');
      expect(elsewhere.statusCode).toBe(400);
      expect(elsewhere.json()).toEqual(invalidPk('corpus', projectB));
      const search = await as('writer').get(`corpus/${projectB}/elements/`);
      expect(search.statusCode).toBe(404);
    });

    it("gives a guest group's members read access, no writing", async () => {
      const readers = await group('Readers', ['reader']);
      await grant(projectA, readers, 10);
      expect((await as('reader').get(`corpus/${projectA}/`)).json().rights).toEqual(['read']);
      const elements = await as('reader').get(`corpus/${projectA}/elements/`);
      expect(elements.statusCode).toBe(200);
      const refused = await createFolder('reader', projectA, 'Not mine to make');
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual(denied('You do not have contributor access to this project.'));
      expect((await addTranscription('reader', pageA)).statusCode).toBe(403);
    });

    it('gives each member the best of their own level and their groups', async () => {
      const writersToo = await group('Writers too', ['reader']);
      await grant(projectA, writersToo, 50);
      expect((await as('reader').get(`corpus/${projectA}/`)).json().rights).toEqual([
        'read',
        'write',
      ]);
      expect((await createFolder('reader', projectA, 'Now I may')).statusCode).toBe(201);
      // Its members see the project's members, groups listed as groups.
      const members = (await as('reader').get(`corpus/${projectA}/memberships/`)).json();
      expect(members.results).toContainEqual({
        id: expect.stringMatching(UUID),
        level: 50,
        created: expect.any(String),
        group: { id: writersToo, name: 'Writers too' },
      });
      expect(members.results).toContainEqual(
        expect.objectContaining({
          level: 100,
          user: expect.objectContaining({ id: cast.owner.id }),
        }),
      );
      expect(members.count).toBe(members.results.length);
      await as('groupAdmin').delete(`group/${writersToo}/`);
      expect((await as('reader').get(`corpus/${projectA}/`)).json().rights).toEqual(['read']);
    });

    it('takes the access away from a removed member and when the group goes', async () => {
      const team = await group('Team', ['outsider']);
      const entry = await grant(projectA, team, 50);
      expect((await as('outsider').get(`element/${pageA}/`)).statusCode).toBe(200);
      const members = (await as('groupAdmin').get(`group/${team}/members/`)).json();
      const outsiderEntry = members.results.find(
        (m: { user: { id: string } }) => m.user.id === cast.outsider.id,
      ).id as string;
      const removed = await as('groupAdmin').delete(`group/${team}/member/${outsiderEntry}/`);
      expect(removed.statusCode).toBe(204);
      expect((await as('outsider').get(`corpus/${projectA}/`)).json()).toEqual(NOT_FOUND);
      expect((await as('outsider').get(`element/${pageA}/`)).statusCode).toBe(404);
      expect((await addTranscription('outsider', pageA)).statusCode).toBe(404);
      expect((await as('outsider').get('corpus/')).json()).toEqual([]);

      // The group's own admin, a member of the project through it, sees it until the group goes.
      expect((await as('groupAdmin').get(`corpus/${projectA}/`)).statusCode).toBe(200);
      const projects = (await as('groupAdmin').get(`group/${team}/corpora/`)).json();
      expect(projects.results).toEqual([
        {
          id: entry,
          level: 50,
          created: expect.any(String),
          corpus: { id: projectA, name: 'Project A' },
        },
      ]);
      expect((await as('groupAdmin').delete(`group/${team}/`)).statusCode).toBe(204);
      const grants = await t()
        .app.db.selectFrom('corpus_groups')
        .select('id')
        .where('group_id', '=', team)
        .execute();
      expect(grants).toEqual([]);
      // Still in Writers and Readers? No: the group admin only made them, and is in them.
      expect((await as('groupAdmin').get(`corpus/${projectB}/`)).statusCode).toBe(404);
    });

    it("changes and removes a group's place in a project through the membership routes", async () => {
      const crew = await group('Crew', ['outsider']);
      const entry = await grant(projectB, crew, 10);
      const promoted = await as('owner').patch(`membership/${entry}/`, { level: 50 });
      expect(promoted.statusCode).toBe(200);
      expect(promoted.json()).toMatchObject({ level: 50, group: { id: crew, name: 'Crew' } });
      expect((await createFolder('outsider', projectB, 'Crew work')).statusCode).toBe(201);
      // A group's member who is no project admin may not change it.
      const byMember = await as('outsider').patch(`membership/${entry}/`, { level: 100 });
      expect(byMember.statusCode).toBe(403);
      const bad = await as('owner').patch(`membership/${entry}/`, { level: 42 });
      expect(bad.json()).toEqual(
        validation('level', '"42" is not a valid choice.', 'invalid_choice'),
      );
      const again = await as('owner').post('memberships/', {
        corpus_id: projectB,
        group_id: crew,
        level: 10,
      });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({
        type: 'client_error',
        errors: [
          {
            code: 'conflict',
            detail: 'This group is already a member of this project.',
            attr: null,
          },
        ],
        existing_id: entry,
      });
      expect((await as('owner').delete(`membership/${entry}/`)).statusCode).toBe(204);
      expect((await as('outsider').get(`corpus/${projectB}/`)).statusCode).toBe(404);
    });

    it('refuses a group the caller cannot see, a non-admin, and both a user and a group', async () => {
      const hidden = await as('groupAdmin').post('groups/', { name: 'Hidden' });
      const hiddenId = hidden.json().id as string;
      const unseen = await as('owner').post('memberships/', {
        corpus_id: projectA,
        group_id: hiddenId,
        level: 10,
      });
      expect(unseen.statusCode).toBe(400);
      expect(unseen.json()).toEqual(invalidPk('group_id', hiddenId));
      const notUuid = await as('owner').post('memberships/', {
        corpus_id: projectA,
        group_id: 'nope',
        level: 10,
      });
      expect(notUuid.json()).toEqual(validation('group_id', 'Must be a valid UUID.'));
      const both = await as('owner').post('memberships/', {
        corpus_id: projectA,
        group_id: hiddenId,
        user_email: cast.reader.email,
        level: 10,
      });
      expect(both.statusCode).toBe(400);
      // The group's admin is no admin of project B: their group cannot join it.
      const notAdmin = await as('groupAdmin').post('memberships/', {
        corpus_id: projectB,
        group_id: hiddenId,
        level: 100,
      });
      expect(notAdmin.json()).toEqual(invalidPk('corpus_id', projectB));
      const grants = await t()
        .app.db.selectFrom('corpus_groups')
        .select('id')
        .where('group_id', '=', hiddenId)
        .execute();
      expect(grants).toEqual([]);
    });
  },
  ENTERPRISE,
);
