/**
 * "New version" of a worker: its Git revision (none: the next numbered version), tag, branch,
 * state, GPU and model usage, and the settings schema (`user_configuration`) as JSON, checked
 * as it is typed with the rules the server applies, each problem under its key.
 */
import { useState } from 'react';
import type { Usage, WorkerVersion, WorkerVersionCreate } from '@/api/workers';
import { errorMessage, fieldErrors } from '@/api/errors';
import { OfflineNote, useNeedsNetwork } from '@/components/NeedsNetwork';
import { ErrorList } from '@/components/modal/ErrorList';
import { Modal } from '@/components/modal/Modal';
import { SubmitActions } from '@/components/modal/ModalActions';
import { ui } from '@/components/styles';
import { useCreateWorkerVersion } from './api';
import { FormField } from './FormField';
import { problemText, readSchemaText, serverSchemaProblems } from './schemaText';

const USAGES: Usage[] = ['disabled', 'supported', 'required'];
const FIELDS = ['revision_url', 'tag', 'branch', 'state', 'gpu_usage', 'model_usage'];

const SCHEMA_EXAMPLE = '{"batch_size": {"title": "Batch size", "type": "int", "default": 8}}';

function UsageSelect({
  value,
  onChange,
  ...props
}: {
  id: string;
  value: Usage;
  onChange: (usage: Usage) => void;
}) {
  return (
    <select
      {...props}
      value={value}
      onChange={(event) => onChange(event.target.value as Usage)}
      className={ui.input}
    >
      {USAGES.map((usage) => (
        <option key={usage} value={usage}>
          {usage}
        </option>
      ))}
    </select>
  );
}

export function NewWorkerVersionModal({
  workerId,
  workerName,
  onClose,
  onCreated,
}: {
  workerId: string;
  workerName: string;
  onClose: () => void;
  onCreated: (version: WorkerVersion) => void;
}) {
  const [revision, setRevision] = useState('');
  const [tag, setTag] = useState('');
  const [branch, setBranch] = useState('');
  const [state, setState] = useState<'created' | 'available'>('created');
  const [gpu, setGpu] = useState<Usage>('disabled');
  const [model, setModel] = useState<Usage>('disabled');
  const [schemaText, setSchemaText] = useState('');
  // The schema as last sent: the server's problems with it go once the author changes it.
  const [sentSchema, setSentSchema] = useState<string | null>(null);
  const create = useCreateWorkerVersion(workerId);
  const offline = useNeedsNetwork();
  const schema = readSchemaText(schemaText);

  const blocked = offline ?? (schema.kind === 'invalid' ? 'Fix the settings schema first' : null);
  const errors = fieldErrors(create.error);
  const schemaProblems =
    schema.kind === 'invalid'
      ? schema.problems
      : sentSchema === schemaText
        ? serverSchemaProblems(errors)
        : [];
  const otherErrors = create.error
    ? Object.keys(errors).length
      ? Object.entries(errors)
          .filter(([attr]) => !FIELDS.includes(attr) && !attr.startsWith('configuration'))
          .flatMap(([, messages]) => messages)
      : [errorMessage(create.error)]
    : [];

  const submit = () => {
    if (blocked) return;
    const input: WorkerVersionCreate = {
      state,
      gpu_usage: gpu,
      model_usage: model,
      configuration: schema.kind === 'valid' ? { user_configuration: schema.schema } : {},
    };
    if (revision.trim()) input.revision_url = revision.trim();
    if (tag.trim()) input.tag = tag.trim();
    if (branch.trim()) input.branch = branch.trim();
    setSentSchema(schemaText);
    create.mutate(input, { onSuccess: onCreated });
  };

  return (
    <Modal
      title={`New version of ${workerName}`}
      size="lg"
      onClose={onClose}
      pending={create.isPending}
      onSubmit={submit}
      footer={
        <SubmitActions
          label="Create"
          pending={create.isPending}
          onCancel={onClose}
          blocked={blocked}
        />
      }
    >
      <OfflineNote action="create a version" />
      <FormField
        label="Revision URL"
        errors={errors.revision_url}
        help="The commit this version was built from; leave empty to number the version instead."
      >
        {(props) => (
          <input
            {...props}
            type="url"
            autoComplete="off"
            placeholder="https://"
            value={revision}
            onChange={(event) => setRevision(event.target.value)}
            className={ui.input}
          />
        )}
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Tag" errors={errors.tag}>
          {(props) => (
            <input
              {...props}
              type="text"
              autoComplete="off"
              maxLength={250}
              value={tag}
              onChange={(event) => setTag(event.target.value)}
              className={ui.input}
            />
          )}
        </FormField>
        <FormField label="Branch" errors={errors.branch}>
          {(props) => (
            <input
              {...props}
              type="text"
              autoComplete="off"
              maxLength={250}
              value={branch}
              onChange={(event) => setBranch(event.target.value)}
              className={ui.input}
            />
          )}
        </FormField>
      </div>
      <div className="grid gap-4 sm:grid-cols-3">
        <FormField label="State" errors={errors.state}>
          {(props) => (
            <select
              {...props}
              value={state}
              onChange={(event) => setState(event.target.value as 'created' | 'available')}
              className={ui.input}
            >
              <option value="created">created</option>
              <option value="available">available</option>
            </select>
          )}
        </FormField>
        <FormField label="GPU usage" errors={errors.gpu_usage}>
          {(props) => <UsageSelect {...props} value={gpu} onChange={setGpu} />}
        </FormField>
        <FormField label="Model usage" errors={errors.model_usage}>
          {(props) => <UsageSelect {...props} value={model} onChange={setModel} />}
        </FormField>
      </div>
      <FormField
        label="Settings schema (JSON)"
        help={
          <>
            The fields a configuration of this version fills, e.g.{' '}
            <code className="font-mono text-xs">{SCHEMA_EXAMPLE}</code>. Leave empty for none.
          </>
        }
      >
        {(props) => (
          <textarea
            {...props}
            aria-invalid={schemaProblems.length ? true : undefined}
            aria-describedby={
              [props['aria-describedby'], schemaProblems.length ? 'schema-problems' : null]
                .filter(Boolean)
                .join(' ') || undefined
            }
            rows={8}
            spellCheck={false}
            value={schemaText}
            onChange={(event) => setSchemaText(event.target.value)}
            className={`${ui.input} font-mono text-xs`}
          />
        )}
      </FormField>
      {schemaProblems.length > 0 && (
        <ul id="schema-problems" aria-label="Schema problems" className="-mt-2 space-y-1">
          {schemaProblems.map((problem, index) => (
            <li key={index} className="text-sm text-red-700">
              {problemText(problem)}
            </li>
          ))}
        </ul>
      )}
      <ErrorList messages={otherErrors} />
    </Modal>
  );
}
