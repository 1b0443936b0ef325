/**
 * The user's selection (spec 001 §7 "Selection", api/arkindex-api.md §3.5): ListSelection,
 * AddSelection and RemoveSelection on /elements/selection/, and the bulk actions on the selected
 * elements of one project: DELETE /corpus/{id}/selection/ deletes them (project admins), POST
 * /elements/selection/move/ and /elements/selection/parent/ move or link them (write). Each call
 * needs a verified e-mail, then the selection feature (spec 001 §6); a bulk action answers 204
 * once its job is queued. Rules live in services/selection.ts and services/selectionBulk.ts.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireVerified } from '../auth/plugin';
import type { User } from '../db/schema';
import { validationError } from '../errors';
import { requestOrigin } from '../origin';
import { paginate } from '../pagination';
import { requireCorpusRight } from '../permissions';
import { FILTER_MESSAGES, QueryReader, queryValues } from '../services/elements/filters';
import { serializeElements } from '../services/elements/serialize';
import {
  addToSelection,
  checkAddedCount,
  clearSelection,
  removeFromSelection,
  selectionDisabled,
  selectionSource,
} from '../services/selection';
import { scheduleSelectionDeletion, scheduleSelectionLink } from '../services/selectionBulk';
import { parse, uuidSchema } from '../validation';
import {
  elementListItem,
  errors,
  idParams,
  noContent,
  pageQuery,
  paginated,
  queryFlag,
} from '../openapi/schemas';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// The list is read first as any list, so its length is checked before each id is.
const addShape = z.object({ ids: z.array(z.unknown()) });
const addBody = z.object({ ids: z.array(uuidSchema) });

/**
 * Strict: a body without `id` clears the whole selection, so a misspelt key (`ids`, `element`)
 * must be refused rather than read as "clear everything".
 */
const removeBody = z.strictObject({ id: uuidSchema.optional() });

const moveBody = z.object({ corpus_id: uuidSchema, destination: uuidSchema });
const linkBody = z.object({ corpus_id: uuidSchema, parent_id: uuidSchema });

const listQuery = pageQuery.extend({
  corpus: z.uuid().optional().describe('Only the selected elements of this project'),
  with_classes: queryFlag,
  with_metadata: queryFlag,
  with_has_children: queryFlag,
  with_corpus: queryFlag,
  with_zone: queryFlag.describe('True unless given'),
});

const tags = ['elements'];
const done = { 204: noContent, ...errors(400, 401, 403) };
const schemas = {
  ListSelection: {
    'x-paginated': true,
    querystring: listQuery,
    response: { 200: paginated(elementListItem), ...errors(400, 401, 403, 404) },
  },
  AddSelection: { body: addBody, response: done },
  RemoveSelection: {
    body: removeBody.describe('No body clears the whole selection'),
    response: done,
  },
  ClearCorpusSelection: {
    params: idParams,
    querystring: z.object({ delete_children: queryFlag.describe('True unless given') }),
    response: { ...done, ...errors(404) },
  },
  MoveSelection: { body: moveBody, response: { ...done, ...errors(404) } },
  LinkSelection: { body: linkBody, response: { ...done, ...errors(404) } },
};
/** A route's schema: its operation id, the group's tag and the schemas above. */
const schema = <K extends keyof typeof schemas>(operationId: K) => ({
  schema: { operationId, tags, ...schemas[operationId] },
});

type IdParams = { Params: { id: string } };

export async function selectionRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  function requireSelectionUser(request: FastifyRequest): User {
    const user = requireVerified(request);
    if (!app.config.features.selection) throw selectionDisabled();
    return user;
  }

  app.get('/elements/selection/', schema('ListSelection'), async (request) => {
    const user = requireSelectionUser(request);
    const reader = new QueryReader(queryValues(request.query));
    const corpus = reader.string('corpus')?.trim();
    if (corpus !== undefined && !UUID.test(corpus)) reader.fail('corpus', FILTER_MESSAGES.uuid);
    const flag = (name: string, fallback: boolean) => reader.boolean(name) ?? fallback;
    const options = {
      classes: flag('with_classes', false),
      metadata: flag('with_metadata', false),
      hasChildren: flag('with_has_children', false),
      corpus: flag('with_corpus', false),
      zone: flag('with_zone', true),
    };
    reader.throwIfInvalid();
    const page = await paginate(request, selectionSource(db, user, corpus?.toLowerCase() ?? null));
    return {
      ...page,
      results: await serializeElements(db, page.results, requestOrigin(request), options),
    };
  });

  /**
   * Answers 204: nothing is created that the client does not already know (the ids it sent
   * are now selected, duplicates included), so, as with the DELETE calls, there is no body to
   * read; a replay of the same call answers the same.
   */
  app.post('/elements/selection/', schema('AddSelection'), async (request, reply) => {
    const user = requireSelectionUser(request);
    checkAddedCount(parse(addShape, request.body).ids.length);
    const { ids } = parse(addBody, request.body);
    await addToSelection(db, user, ids);
    return reply.code(204).send();
  });

  app.delete('/elements/selection/', schema('RemoveSelection'), async (request, reply) => {
    const user = requireSelectionUser(request);
    const result = removeBody.safeParse(request.body ?? {});
    if (!result.success && result.error.issues.some((i) => i.code === 'unrecognized_keys')) {
      throw validationError(
        'non_field_errors',
        'Send {"id": "<element id>"} to unselect one element, or no body to clear the selection.',
      );
    }
    const { id } = parse(removeBody, request.body);
    if (id === undefined) await clearSelection(db, user);
    else await removeFromSelection(db, user, id);
    return reply.code(204).send();
  });

  app.delete<IdParams>(
    '/corpus/:id/selection/',
    schema('ClearCorpusSelection'),
    async (request, reply) => {
      const user = requireSelectionUser(request);
      const access = await requireCorpusRight(db, user, request.params.id, 'admin');
      const reader = new QueryReader(queryValues(request.query));
      const deleteChildren = reader.boolean('delete_children') ?? true;
      reader.throwIfInvalid();
      await scheduleSelectionDeletion(db, user, access, deleteChildren);
      return reply.code(204).send();
    },
  );

  app.post('/elements/selection/move/', schema('MoveSelection'), async (request, reply) => {
    const user = requireSelectionUser(request);
    const body = parse(moveBody, request.body);
    await scheduleSelectionLink(db, user, 'move', {
      corpusId: body.corpus_id,
      targetId: body.destination,
    });
    return reply.code(204).send();
  });

  app.post('/elements/selection/parent/', schema('LinkSelection'), async (request, reply) => {
    const user = requireSelectionUser(request);
    const body = parse(linkBody, request.body);
    await scheduleSelectionLink(db, user, 'link', {
      corpusId: body.corpus_id,
      targetId: body.parent_id,
    });
    return reply.code(204).send();
  });
}
