/**
 * A version's configuration fields (GET /workers/versions/{id}/fields/): each field's key,
 * title, type, whether it is required and its default; a group's children under it.
 */
import { useQuery } from '@tanstack/react-query';
import { workerVersionFieldsQuery, type WorkerVersionField } from '@/api/workers';
import { ListTable } from '@/components/ListTable';
import { useErrorNotification } from '@/components/notifications/useErrorNotification';
import { ui } from '@/components/styles';

function depthOf(field: WorkerVersionField, byId: Map<string, WorkerVersionField>): number {
  let depth = 0;
  for (let parent = field.parent_id; parent; parent = byId.get(parent)?.parent_id ?? null) depth++;
  return depth;
}

function typeOf(field: WorkerVersionField): string {
  if (field.type === 'list' && field.subtype) return `list of ${field.subtype}`;
  return field.type;
}

function describeDefault(value: unknown): string {
  if (value === undefined || value === null) return '—';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export function WorkerVersionFields({ versionId }: { versionId: string }) {
  const fields = useQuery(workerVersionFieldsQuery(versionId));
  useErrorNotification(fields.error);
  const list = fields.data?.results ?? [];
  const byId = new Map(list.map((field) => [field.id, field]));
  return (
    <section aria-labelledby="fields-heading" className={`${ui.card} space-y-3`}>
      <h2 id="fields-heading" className="text-lg font-semibold text-slate-900">
        Configuration fields
      </h2>
      {fields.isPending ? (
        <p role="status" className="text-slate-600">
          Loading…
        </p>
      ) : fields.isError ? (
        <p className="text-slate-600">The fields could not be loaded.</p>
      ) : list.length === 0 ? (
        <p className="text-slate-600">This version has no configuration field.</p>
      ) : (
        <ListTable
          caption="Configuration fields"
          columns={['Key', 'Title', 'Type', 'Required']}
          last="Default"
        >
          {list.map((field) => (
            <tr key={field.id}>
              <td
                className="py-2 pr-4 font-mono text-xs"
                style={{ paddingLeft: `${depthOf(field, byId) * 1.25}rem` }}
              >
                {field.key}
              </td>
              <td className="py-2 pr-4">
                {field.title}
                {field.help_text && <p className="text-xs text-slate-500">{field.help_text}</p>}
              </td>
              <td className="py-2 pr-4 text-slate-600">
                {typeOf(field)}
                {field.choices && field.choices.length > 0 && (
                  <p className="text-xs text-slate-500">
                    {field.choices.map((choice) => describeDefault(choice)).join(', ')}
                  </p>
                )}
              </td>
              <td className="py-2 pr-4 text-slate-600">{field.required ? 'Yes' : 'No'}</td>
              <td className="py-2 font-mono text-xs text-slate-600">
                {field.type === 'group' ? '' : describeDefault(field.default)}
              </td>
            </tr>
          ))}
        </ListTable>
      )}
    </section>
  );
}
