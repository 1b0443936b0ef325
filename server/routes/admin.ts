/**
 * The site administration under /admin/ (our own extension of the API: Arkindex does this in
 * Django's admin). Site admins only; the rules are in services/admin.ts.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { paginate } from '../pagination';
import { requireSiteAdmin } from '../permissions';
import {
  adminCorpusSource,
  adminUserSource,
  getAdminUser,
  updateAdminUser,
} from '../services/admin';
import { parse } from '../validation';
import { errors, idParams, pageQuery, paginated } from '../openapi/schemas';

// A repeated parameter arrives as an array; Django reads the last value, so do we.
const searchQuery = z.object({
  search: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((value) => (Array.isArray(value) ? value[value.length - 1] : value)?.trim())
    .pipe(z.string().max(250).optional()),
});

const userChangesBody = z.object({
  is_admin: z.boolean().optional(),
  verified_email: z.boolean().optional(),
  is_active: z.boolean().optional(),
  can_manage_workers: z.boolean().optional(),
});

const uuid = z.uuid();
const adminUser = z
  .object({
    id: uuid,
    email: z.string(),
    display_name: z.string(),
    is_admin: z.boolean(),
    is_active: z.boolean(),
    verified_email: z.boolean(),
    can_manage_workers: z.boolean(),
    has_usable_password: z.boolean(),
    created: z.string(),
    last_login: z.string().nullable(),
  })
  .meta({ id: 'AdminUser' });
const adminCorpus = z
  .object({
    id: uuid,
    name: z.string(),
    public: z.boolean(),
    created: z.string(),
    members: z.number().int(),
  })
  .meta({ id: 'AdminCorpus' });
const listQuery = pageQuery.extend({
  search: z
    .string()
    .max(250)
    .optional()
    .describe("Kept when a user's e-mail or name, or a project's name, contains it"),
});

const tags = ['admin'];
const schemas = {
  AdminListUsers: {
    'x-paginated': true,
    querystring: listQuery,
    response: { 200: paginated(adminUser), ...errors(400, 401, 403) },
  },
  AdminRetrieveUser: {
    params: idParams,
    response: { 200: adminUser, ...errors(401, 403, 404) },
  },
  AdminPartialUpdateUser: {
    params: idParams,
    body: userChangesBody,
    response: { 200: adminUser, ...errors(400, 401, 403, 404) },
  },
  AdminListCorpora: {
    'x-paginated': true,
    querystring: listQuery,
    response: { 200: paginated(adminCorpus), ...errors(400, 401, 403) },
  },
};
/** A route's schema: its operation id, the group's tag and the schemas above. */
const schema = <K extends keyof typeof schemas>(operationId: K) => ({
  schema: { operationId, tags, ...schemas[operationId] },
});

type IdParams = { Params: { id: string } };

export async function adminRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  app.get('/admin/users/', schema('AdminListUsers'), async (request) => {
    requireSiteAdmin(request.user);
    const { search } = parse(searchQuery, request.query);
    return paginate(request, adminUserSource(db, search || undefined));
  });

  app.get<IdParams>('/admin/users/:id/', schema('AdminRetrieveUser'), async (request) => {
    requireSiteAdmin(request.user);
    return getAdminUser(db, request.params.id);
  });

  app.patch<IdParams>('/admin/users/:id/', schema('AdminPartialUpdateUser'), async (request) => {
    const actor = requireSiteAdmin(request.user);
    const changes = parse(userChangesBody, request.body);
    return updateAdminUser(db, actor, request.params.id, changes);
  });

  app.get('/admin/corpora/', schema('AdminListCorpora'), async (request) => {
    requireSiteAdmin(request.user);
    const { search } = parse(searchQuery, request.query);
    return paginate(request, adminCorpusSource(db, search || undefined));
  });
}
