/**
 * One farm's agents on the agents page: each machine's state, last heartbeat, slots in use, the
 * CPU and memory it last reported, and the tasks it runs (opened row by row).
 */
import { Fragment, useState } from 'react';
import type { Agent, Farm } from '@/api/processTypes';
import { relativeTime } from '@/lib/relativeTime';
import { AgentTasks } from './AgentTasks';
import { cpuText, hardwareText, memoryText, share } from './machine';
import { UsageBar } from './UsageBar';

const COLUMNS = ['Hostname', 'State', 'Last heartbeat', 'Slots in use', 'CPU', 'Memory', 'Tasks'];

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

export function farmSummary(agents: readonly Agent[]): string {
  const active = agents.filter((agent) => agent.active).length;
  const used = agents.reduce((sum, agent) => sum + agent.running_tasks, 0);
  const slots = agents.reduce((sum, agent) => sum + agent.slots, 0);
  return `${plural(agents.length, 'agent')}, ${active} active, ${used} of ${slots} slots in use`;
}

export function FarmAgents({ farm, agents }: { farm: Farm; agents: readonly Agent[] }) {
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const headingId = `farm-${farm.id}`;

  return (
    <section aria-labelledby={headingId} className="space-y-2">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={headingId} className="text-lg font-semibold text-brand-900">
          {farm.name || 'Unnamed farm'}
        </h2>
        <p className="text-sm text-slate-600">{farmSummary(agents)}</p>
      </div>
      <div className="overflow-x-auto rounded-md border border-slate-200">
        <table className="min-w-full divide-y divide-slate-200 text-left text-sm">
          <caption className="sr-only">Agents of {farm.name || 'Unnamed farm'}</caption>
          <thead className="bg-slate-50 text-slate-500">
            <tr>
              {COLUMNS.map((column) => (
                <th key={column} scope="col" className="px-3 py-2 font-medium">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {agents.map((agent) => {
              const cpu = cpuText(agent);
              const memory = memoryText(agent);
              const shown = open.has(agent.id);
              return (
                <Fragment key={agent.id}>
                  <tr>
                    <th scope="row" className="px-3 py-2 text-left font-normal">
                      <span className="font-mono">{agent.hostname}</span>
                      <span className="block text-xs text-slate-500">{hardwareText(agent)}</span>
                    </th>
                    <td className="px-3 py-2">
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
                    <td className="px-3 py-2 whitespace-nowrap" title={agent.last_ping}>
                      {relativeTime(agent.last_ping)}
                    </td>
                    <td className="px-3 py-2 whitespace-nowrap">
                      {agent.running_tasks} of {agent.slots}
                      <UsageBar
                        label={`Slots in use on ${agent.hostname}`}
                        value={share(agent.running_tasks, agent.slots)}
                      />
                    </td>
                    <td className="px-3 py-2 whitespace-nowrap">
                      {cpu ?? <span className="text-slate-400">Not reported</span>}
                      {agent.cpu_load !== null && (
                        <UsageBar
                          label={`CPU load on ${agent.hostname}`}
                          value={share(agent.cpu_load, 1)}
                        />
                      )}
                    </td>
                    <td className="px-3 py-2 whitespace-nowrap">
                      {memory ?? <span className="text-slate-400">Not reported</span>}
                      {agent.ram_used !== null && agent.ram_total > 0 && (
                        <UsageBar
                          label={`Memory in use on ${agent.hostname}`}
                          value={share(agent.ram_used, agent.ram_total)}
                        />
                      )}
                    </td>
                    <td className="px-3 py-2 whitespace-nowrap">
                      {agent.running_tasks === 0 && !shown ? (
                        <span className="text-slate-500">None</span>
                      ) : (
                        <button
                          type="button"
                          aria-expanded={shown}
                          aria-controls={`agent-tasks-${agent.id}`}
                          aria-label={`${plural(agent.running_tasks, 'task')} on ${agent.hostname}`}
                          onClick={() => toggle(agent.id)}
                          className="min-h-6 rounded px-1 text-brand-700 underline-offset-2 hover:underline"
                        >
                          {plural(agent.running_tasks, 'task')}
                        </button>
                      )}
                    </td>
                  </tr>
                  {shown && (
                    <tr id={`agent-tasks-${agent.id}`}>
                      <td colSpan={COLUMNS.length} className="bg-slate-50 px-6 py-2">
                        <AgentTasks agentId={agent.id} />
                      </td>
                    </tr>
                  )}
                </Fragment>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
