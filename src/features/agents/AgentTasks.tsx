/**
 * The tasks one agent runs now, read when its row is opened (RetrieveAgent) and kept fresh
 * while it stays open: each with its process and since when it runs.
 */
import { Link } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { errorMessage } from '@/api/errors';
import { agentQuery } from '@/api/processes';
import { relativeTime } from '@/lib/relativeTime';

export function AgentTasks({ agentId }: { agentId: string }) {
  const agent = useQuery(agentQuery(agentId));
  if (agent.isPending) return <p role="status">Loading…</p>;
  if (agent.isError) {
    return <p role="alert">The tasks could not be loaded: {errorMessage(agent.error)}</p>;
  }
  if (agent.data.running.length === 0) return <p>It runs no task now.</p>;
  return (
    <ul className="space-y-1">
      {agent.data.running.map((task) => (
        <li key={task.id} className="flex flex-wrap gap-x-3">
          <Link
            to="/process/$id/{-$selectedRun}"
            params={{ id: task.process_id, selectedRun: undefined }}
            className="font-medium text-brand-700 underline-offset-2 hover:underline"
          >
            {task.slug}
          </Link>
          <span className="text-slate-500">
            {task.state === 'stopping' ? 'stopping' : 'running'}
            {task.started ? `, started ${relativeTime(task.started)}` : ''}
          </span>
        </li>
      ))}
    </ul>
  );
}
