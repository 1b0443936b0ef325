/** The tasks of one worker run (or of an import) in a run: each opens its panel by its slug. */
import type { Task } from '@/api/processTypes';
import { relativeTime } from '@/lib/relativeTime';
import { StateBadge } from './StateBadge';

const COLUMNS = ['Task', 'State', 'Elements', 'Agent', 'Started', 'Finished', 'Attempts'];

function When({ iso }: { iso: string | null }) {
  return iso ? <span title={iso}>{relativeTime(iso)}</span> : <>—</>;
}

export function TasksTable({
  title,
  tasks,
  openId,
  onOpen,
}: {
  title: string;
  tasks: Task[];
  openId: string | null;
  onOpen: (id: string) => void;
}) {
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full divide-y divide-slate-200 text-left text-sm">
        <caption className="pb-1 text-left font-medium text-slate-800">{title}</caption>
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
          {tasks.map((task) => (
            <tr
              key={task.id}
              aria-selected={openId === task.id}
              className="aria-selected:bg-brand-50"
            >
              <td className="py-2 pr-4">
                <button
                  type="button"
                  className="font-mono font-medium text-brand-600 hover:underline"
                  aria-expanded={openId === task.id}
                  onClick={() => onOpen(task.id)}
                >
                  {task.slug}
                </button>
                {task.original_task_id && (
                  <span
                    className="ml-2 text-xs text-slate-500"
                    title={`Restart of task ${task.original_task_id}`}
                  >
                    restarted
                  </span>
                )}
              </td>
              <td className="py-2 pr-4">
                <StateBadge state={task.state} />
              </td>
              <td className="py-2 pr-4">{task.elements_count}</td>
              <td className="py-2 pr-4">{task.agent?.hostname ?? '—'}</td>
              <td className="py-2 pr-4 whitespace-nowrap">
                <When iso={task.started} />
              </td>
              <td className="py-2 pr-4 whitespace-nowrap">
                <When iso={task.finished} />
              </td>
              <td className="py-2">{task.attempts}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
