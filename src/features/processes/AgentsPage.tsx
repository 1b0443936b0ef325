/**
 * The agents that run tasks (enterprise: spec 000 §2 /process/agents): each with its farm,
 * whether it answers, its last heartbeat, its slots and how many tasks it runs now.
 */
import { PagedListState } from '@/components/PagedListState';
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { errorMessage } from '@/api/errors';
import { agentsQuery } from '@/api/processes';
import { PaginationBar } from '@/components/PaginationBar';
import { useErrorNotification } from '@/components/notifications/useErrorNotification';
import { relativeTime } from '@/lib/relativeTime';

const COLUMNS = ['Hostname', 'Farm', 'Active', 'Last ping', 'Slots', 'Running tasks'];
const PAGE_SIZE = 20;

export function AgentsPage() {
  const [page, setPage] = useState(1);
  const agents = useQuery(agentsQuery(page));
  useErrorNotification(agents.error);

  return (
    <section aria-labelledby="agents-heading" className="mx-auto max-w-5xl space-y-4 p-6">
      <h1 id="agents-heading" className="text-2xl font-semibold text-brand-900">
        Agents
      </h1>
      <PagedListState
        query={agents}
        failed={(error) => `The agents could not be loaded: ${errorMessage(error)}`}
        empty="No agent has registered yet."
      >
        {(listed) => (
          <>
            <div className="overflow-x-auto">
              <table className="min-w-full divide-y divide-slate-200 text-left text-sm">
                <caption className="sr-only">Agents</caption>
                <thead className="text-slate-500">
                  <tr>
                    {COLUMNS.map((column) => (
                      <th key={column} scope="col" className="py-2 pr-4 font-medium">
                        {column}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {listed.results.map((agent) => (
                    <tr key={agent.id}>
                      <td className="py-2 pr-4 font-mono">{agent.hostname}</td>
                      <td className="py-2 pr-4">{agent.farm.name}</td>
                      <td className="py-2 pr-4">
                        <span
                          className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${
                            agent.active
                              ? 'bg-emerald-100 text-emerald-800 ring-emerald-300'
                              : 'bg-slate-100 text-slate-600 ring-slate-300'
                          }`}
                        >
                          {agent.active ? 'Active' : 'Inactive'}
                        </span>
                      </td>
                      <td className="py-2 pr-4 whitespace-nowrap" title={agent.last_ping}>
                        {relativeTime(agent.last_ping)}
                      </td>
                      <td className="py-2 pr-4">{agent.slots}</td>
                      <td className="py-2">{agent.running_tasks}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
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
