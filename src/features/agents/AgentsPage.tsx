/**
 * The farms and the agents that run their tasks (enterprise: spec 000 §2 /process/agents), for
 * site admins: each farm's machines with their state, heartbeat, slots in use, CPU and memory,
 * and the tasks they run, refreshed every few seconds while the page is open.
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { errorMessage } from '@/api/errors';
import { AGENTS_REFRESH_MS, agentsQuery } from '@/api/processes';
import type { Agent, Farm } from '@/api/processTypes';
import { PagedListState } from '@/components/PagedListState';
import { PaginationBar } from '@/components/PaginationBar';
import { useErrorNotification } from '@/components/notifications/useErrorNotification';
import { FarmAgents } from './FarmAgents';

const PAGE_SIZE = 20;

/** The page's agents by farm, farms in the order their first agent comes. */
function byFarm(agents: readonly Agent[]): { farm: Farm; agents: Agent[] }[] {
  const groups = new Map<string, { farm: Farm; agents: Agent[] }>();
  for (const agent of agents) {
    const group = groups.get(agent.farm.id) ?? { farm: agent.farm, agents: [] };
    group.agents.push(agent);
    groups.set(agent.farm.id, group);
  }
  return [...groups.values()];
}

export function AgentsPage() {
  const [page, setPage] = useState(1);
  const agents = useQuery(agentsQuery(page));
  useErrorNotification(agents.error);

  return (
    <section aria-labelledby="agents-heading" className="mx-auto max-w-6xl space-y-6 p-6">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 id="agents-heading" className="text-2xl font-semibold text-brand-900">
          Agents
        </h1>
        <p className="text-sm text-slate-500">
          Refreshed every {AGENTS_REFRESH_MS / 1000} seconds.
        </p>
      </div>
      <PagedListState
        query={agents}
        failed={(error) => `The agents could not be loaded: ${errorMessage(error)}`}
        empty="No agent has registered yet."
      >
        {(listed) => (
          <>
            {byFarm(listed.results).map((group) => (
              <FarmAgents key={group.farm.id} farm={group.farm} agents={group.agents} />
            ))}
            <PaginationBar
              count={listed.count}
              page={page}
              pageSize={PAGE_SIZE}
              singular="agent"
              label="Agents pages"
              onPageChange={setPage}
            />
          </>
        )}
      </PagedListState>
    </section>
  );
}
