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

type IdParams = { Params: { id: string } };

export async function adminRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  app.get(
    '/admin/users/',
    { schema: { operationId: 'AdminListUsers', tags: ['admin'] } },
    async (request) => {
      requireSiteAdmin(request.user);
      const { search } = parse(searchQuery, request.query);
      return paginate(request, adminUserSource(db, search || undefined));
    },
  );

  app.get<IdParams>(
    '/admin/users/:id/',
    { schema: { operationId: 'AdminRetrieveUser', tags: ['admin'] } },
    async (request) => {
      requireSiteAdmin(request.user);
      return getAdminUser(db, request.params.id);
    },
  );

  app.patch<IdParams>(
    '/admin/users/:id/',
    { schema: { operationId: 'AdminPartialUpdateUser', tags: ['admin'] } },
    async (request) => {
      const actor = requireSiteAdmin(request.user);
      const changes = parse(userChangesBody, request.body);
      return updateAdminUser(db, actor, request.params.id, changes);
    },
  );

  app.get(
    '/admin/corpora/',
    { schema: { operationId: 'AdminListCorpora', tags: ['admin'] } },
    async (request) => {
      requireSiteAdmin(request.user);
      const { search } = parse(searchQuery, request.query);
      return paginate(request, adminCorpusSource(db, search || undefined));
    },
  );
}
