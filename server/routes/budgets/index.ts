/**
 * Budgets (enterprise edition; rules in services/budgets/): ListBudgets, CreateBudget,
 * RetrieveBudget, PartialUpdateBudget, DestroyBudget, ListBudgetEntries, RetrieveBudgetSummary,
 * and the two settings charging depends on: a process' budget and a farm's hourly rate.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../../auth/plugin';
import { paginate } from '../../pagination';
import { requireSiteAdmin, requireUuid } from '../../permissions';
import { validationErrors } from '../../errors';
import { parse, uuidSchema } from '../../validation';
import { setProcessBudget } from '../../services/budgets/attach';
import {
  createBudget,
  deleteBudget,
  requireBudget,
  requireBudgets,
  updateBudget,
  budgetPages,
} from '../../services/budgets/budgets';
import { budgetSummary, entryPages } from '../../services/budgets/entries';
import { setFarmRate } from '../../services/budgets/farms';
import { parseMoney } from '../../services/budgets/money';
import { processJson } from '../../services/processes/json';
import { requireProcess } from '../../services/processes/rights';
import { errors, idParams, noContent, pageQuery, paginated } from '../../openapi/schemas';
import { process } from '../../openapi/process';

const uuid = z.uuid();
const money = z.string().describe('A decimal with at most 2 places, e.g. "100.00"');

/** Amounts are read by services/budgets/money.ts, which also takes a JSON number. */
const amountInput = z.union([z.string(), z.number()]);
const createBody = z.object({
  name: z.string(),
  amount: amountInput,
  currency: z.string().describe('An ISO 4217 code, e.g. EUR'),
});
const updateBody = z.object({
  name: z.string().optional(),
  amount: amountInput.optional(),
  currency: z.string().optional(),
});
const entriesQuery = z.object({ process_id: uuidSchema.optional() }).passthrough();
const processBudgetBody = z.object({ budget_id: uuidSchema.nullable() });
const farmRateBody = z.object({ rate: amountInput });

const processRef = z.object({ id: uuid, name: z.string().nullable() }).nullable();
const budget = z
  .object({
    id: uuid,
    name: z.string(),
    amount: money,
    currency: z.string(),
    spent: money,
    remaining: money.describe('amount − spent; below zero once tasks overran the budget'),
    creator: z.object({ id: uuid, display_name: z.string() }).nullable(),
    created: z.string(),
    updated: z.string(),
  })
  .meta({ id: 'Budget' });
const entry = z
  .object({
    id: uuid,
    budget_id: uuid,
    process: processRef.describe('Null once the process is deleted'),
    task_id: uuid,
    description: z.string(),
    value: money,
    created: z.string().describe('When the task finished'),
  })
  .meta({ id: 'BudgetEntry' });
const summary = z
  .object({
    processes: z.array(z.object({ process: processRef, tasks: z.number().int(), total: money })),
    days: z.array(
      z.object({
        day: z.string().describe('YYYY-MM-DD, UTC'),
        tasks: z.number().int(),
        total: money,
      }),
    ),
  })
  .meta({ id: 'BudgetSummary' });
const farmRate = z
  .object({ id: uuid, name: z.string(), rate: money.describe('Per hour of task time') })
  .meta({ id: 'FarmRate' });

const tags = ['budgets'];
const schemas = {
  ListBudgets: {
    'x-paginated': true,
    querystring: pageQuery,
    response: { 200: paginated(budget), ...errors(401, 404) },
  },
  CreateBudget: { body: createBody, response: { 201: budget, ...errors(400, 401, 403, 404) } },
  RetrieveBudget: { params: idParams, response: { 200: budget, ...errors(401, 404) } },
  PartialUpdateBudget: {
    params: idParams,
    body: updateBody,
    response: { 200: budget, ...errors(400, 401, 403, 404) },
  },
  DestroyBudget: { params: idParams, response: { 204: noContent, ...errors(401, 403, 404) } },
  ListBudgetEntries: {
    'x-paginated': true,
    params: idParams,
    querystring: pageQuery.extend({ process_id: uuid.optional() }),
    response: { 200: paginated(entry), ...errors(400, 401, 404) },
  },
  RetrieveBudgetSummary: { params: idParams, response: { 200: summary, ...errors(401, 404) } },
  UpdateProcessBudget: {
    params: idParams,
    body: processBudgetBody,
    response: { 200: process, ...errors(400, 401, 403, 404) },
  },
  UpdateFarmRate: {
    params: idParams,
    body: farmRateBody,
    response: { 200: farmRate, ...errors(400, 401, 403, 404) },
  },
};
const schema = <K extends keyof typeof schemas>(operationId: K) => ({
  schema: { operationId, tags, ...schemas[operationId] },
});

type IdParams = { Params: { id: string } };

/** A money field, or a 400 naming it. */
function money100(value: unknown, attr: string): number {
  const parsed = parseMoney(value, attr);
  if (typeof parsed !== 'number') throw validationErrors([parsed]);
  return parsed;
}

export async function budgetRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  app.get('/budgets/', schema('ListBudgets'), async (request) => {
    requireBudgets(app);
    requireUser(request);
    return paginate(request, budgetPages(db));
  });

  app.post('/budgets/', schema('CreateBudget'), async (request, reply) => {
    requireBudgets(app);
    const user = requireSiteAdmin(request.user);
    const input = parse(createBody, request.body);
    return reply.code(201).send(await createBudget(db, user.id, input));
  });

  app.get<IdParams>('/budget/:id/', schema('RetrieveBudget'), async (request) => {
    requireBudgets(app);
    requireUser(request);
    return requireBudget(db, request.params.id);
  });

  app.patch<IdParams>('/budget/:id/', schema('PartialUpdateBudget'), async (request) => {
    requireBudgets(app);
    requireSiteAdmin(request.user);
    return updateBudget(db, request.params.id, parse(updateBody, request.body));
  });

  app.delete<IdParams>('/budget/:id/', schema('DestroyBudget'), async (request, reply) => {
    requireBudgets(app);
    requireSiteAdmin(request.user);
    await deleteBudget(db, request.params.id);
    return reply.code(204).send();
  });

  app.get<IdParams>('/budget/:id/entries/', schema('ListBudgetEntries'), async (request) => {
    requireBudgets(app);
    requireUser(request);
    const { id } = await requireBudget(db, request.params.id);
    const query = parse(entriesQuery, request.query);
    return paginate(request, entryPages(db, id, query.process_id?.toLowerCase()));
  });

  app.get<IdParams>('/budget/:id/summary/', schema('RetrieveBudgetSummary'), async (request) => {
    requireBudgets(app);
    requireUser(request);
    const { id } = await requireBudget(db, request.params.id);
    return budgetSummary(db, id);
  });

  app.put<IdParams>('/process/:id/budget/', schema('UpdateProcessBudget'), async (request) => {
    requireBudgets(app);
    const user = requireUser(request);
    const found = await requireProcess(db, user, request.params.id, 'admin');
    const input = parse(processBudgetBody, request.body);
    await setProcessBudget(db, found, input.budget_id);
    return processJson(db, found.id);
  });

  app.patch<IdParams>('/farm/:id/', schema('UpdateFarmRate'), async (request) => {
    requireBudgets(app);
    requireSiteAdmin(request.user);
    const id = requireUuid(request.params.id);
    const input = parse(farmRateBody, request.body);
    return setFarmRate(db, id, money100(input.rate, 'rate'));
  });
}
