/**
 * What the agent suites share: a test app that also listens on a port (agents are separate
 * processes that reach it over HTTP), a project with pages, processes whose worker version runs
 * one of the fixture programs, and cleanup of every agent started.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { Client, type TestApp } from '../server/harness';
import { makeActorsAndProjects, type Actors } from '../server/actors';
import { insertElements } from '../server/elementsFixtures';
import { makeProcess, type Farm, type TaskSpec } from '../server/tasks/fixtures';
import { startAgent, waitFor, type AgentProcess } from './agentProcess';

/** The fields of the API's Task (src/api/processTypes.ts) these suites read. */
export interface Task {
  id: string;
  state: string;
  attempts: number;
  agent: { id: string; hostname: string } | null;
  logs?: string;
}

export const fixture = (name: string) => ['node', `{folia}/tests/agent/fixtures/${name}`];

export interface AgentSuite {
  url: string;
  actors: Actors;
  corpusId: string;
  owner: Client;
  /** Pages named `${prefix} 1`…`${prefix} n`, in that order. */
  pages(prefix: string, count: number): Promise<string[]>;
  process(specs: TaskSpec[], command: string[] | null, farm?: Farm): ReturnType<typeof makeProcess>;
  /** An agent of this suite's server, unless given another url (a relay). */
  agent(options: Omit<Parameters<typeof startAgent>[0], 'url'> & { url?: string }): AgentProcess;
  task(id: string): Promise<Task>;
  /** Waits until the task reaches one of the states, and answers it. */
  until(id: string, states: string[], timeoutMs?: number): Promise<Task>;
}

export function useAgentSuite(t: () => TestApp): AgentSuite {
  const started: AgentProcess[] = [];
  const suite = {} as AgentSuite;
  beforeAll(async () => {
    const app: FastifyInstance = t().app;
    const made = await makeActorsAndProjects(app);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    suite.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    suite.actors = made.actors;
    suite.corpusId = made.privateId;
    suite.owner = new Client(app, made.actors.owner.token);
  });
  afterEach(async () => {
    for (const agent of started.splice(0)) {
      await agent.kill('SIGKILL');
      fs.rmSync(agent.workDir, { recursive: true, force: true });
    }
  });
  suite.pages = async (prefix, count) => {
    const specs = Array.from({ length: count }, (_, i) => ({
      name: `${prefix} ${i + 1}`,
      type: 'page',
    }));
    const ids = await insertElements(t().app, suite.corpusId, specs);
    return specs.map((spec) => ids[spec.name]!);
  };
  suite.process = (specs, command, farm) =>
    makeProcess(t().app, suite.corpusId, suite.actors.owner.id, specs, { command, farm });
  suite.agent = (options) => {
    const agent = startAgent({ url: suite.url, ...options });
    started.push(agent);
    return agent;
  };
  suite.task = async (id) => {
    const response = await suite.owner.get(`task/${id}/`);
    if (response.statusCode !== 200) throw new Error(response.body);
    return response.json<Task>();
  };
  suite.until = async (id, states, timeoutMs = 20_000) =>
    waitFor(
      `task ${id} to be ${states.join(' or ')}`,
      async () => {
        const task = await suite.task(id);
        return states.includes(task.state) ? task : undefined;
      },
      timeoutMs,
    );
  return suite;
}

export const scratchLeft = (agent: AgentProcess) =>
  fs.existsSync(agent.workDir)
    ? fs.readdirSync(agent.workDir).map((n) => path.join(agent.workDir, n))
    : [];
