/**
 * The export process (spec 001 §7 Exports; api part 2 §1.1): an element, or the user's selection
 * of a project, written to PDF, PAGE XML, ALTO, DOCX or CSV by the format's feature worker, from
 * a done project export or a new one. Only the formats the server offers are listed; a failed
 * export is listed but cannot be chosen. The server's refusals go under the field they name.
 */
import { useId, useState, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import {
  allExportsQuery,
  createExportProcess,
  exportKeys,
  featureWorkerVersionQuery,
  EXPORT_FORMATS,
  type CorpusExport,
  type ExportFormat,
  type ExportProcessCreate,
} from '@/api/exports';
import { ApiError } from '@/api/errors';
import { farmsQuery } from '@/api/processConfiguration';
import { processKeys } from '@/api/processes';
import { serverInfoQuery } from '@/api/serverInfo';
import type { Features } from '@/api/types';
import { ErrorList } from '@/components/modal/ErrorList';
import { Modal } from '@/components/modal/Modal';
import { SubmitActions } from '@/components/modal/ModalActions';
import { OfflineNote, useNeedsNetwork } from '@/components/NeedsNetwork';
import { notifyError } from '@/components/notifications/store';
import { ui } from '@/components/styles';
import { NO_ERRORS, isValidationError, toFormErrors, type FormErrors } from '@/lib/formErrors';
import {
  schemaFields,
  validateConfiguration,
  type UserConfiguration,
} from '@/lib/workerConfiguration';
import {
  ConfigurationInputs,
  configurationOf,
  initialInputs,
  type InputValues,
} from './ConfigurationInputs';
import { exportStateLabel } from './ExportStateBadge';

export const EXPORT_PROCESS_TITLE = 'Export to a file';
/** Spec 001 §8, word for word. */
export const WORKER_VERSION_ERROR = 'The worker version for export could not be retrieved';
/** Spec 000 §8: "An error occurred creating the process: reason". */
export const CREATE_EXPORT_ERROR = 'An error occurred creating the process';
export const NEW_EXPORT = 'A new export';
export const NO_EXPORT_FORMAT = 'No export format is available on this server.';

/** The fields the server's 400 may name, each shown under its input (spec 001 §8). */
export const EXPORT_PROCESS_FIELDS = [
  'format',
  'export_id',
  'configuration',
  'farm_id',
  'worker_run_id',
  'element_id',
  'selection',
] as const;

export interface ExportProcessModalProps {
  corpusId: string;
  corpusName?: string;
  /** The element exported, with all it holds; absent with `selection`. */
  element?: { id: string; name: string } | null;
  /** Exports the user's selected elements of the project instead. */
  selection?: boolean;
  onClose: () => void;
}

export function offeredFormats(features: Partial<Features> | undefined) {
  return EXPORT_FORMATS.filter((format) => features?.[format.feature]);
}

function exportLabel(item: CorpusExport): string {
  const date = new Date(item.created).toISOString().slice(0, 16).replace('T', ' ');
  const label = `${date} UTC, by ${item.user.display_name}`;
  return item.state === 'done' ? label : `${label} (${exportStateLabel(item.state).toLowerCase()})`;
}

export function ExportProcessModal({
  corpusId,
  corpusName,
  element = null,
  selection = false,
  onClose,
}: ExportProcessModalProps) {
  const id = useId();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const offline = useNeedsNetwork();
  const { data: info } = useQuery(serverInfoQuery);
  const formats = offeredFormats(info?.features);
  const [chosenFormat, setFormat] = useState<ExportFormat | null>(null);
  const format = chosenFormat ?? formats[0]?.format ?? null;
  const feature = EXPORT_FORMATS.find((item) => item.format === format)?.feature ?? null;
  const version = useQuery({
    ...featureWorkerVersionQuery(feature ?? 'none'),
    enabled: !!feature,
  });
  const schema: UserConfiguration = version.data?.configuration?.user_configuration ?? {};
  const hasFields = schemaFields(schema).length > 0;
  // Inputs per format: going back to a format keeps what was typed for it.
  const [inputsByFormat, setInputsByFormat] = useState<Record<string, InputValues>>({});
  const inputs = (format && inputsByFormat[format]) ?? initialInputs(schema);
  const exports = useQuery(allExportsQuery(corpusId));
  const choices = (exports.data ?? [])
    .filter((item) => item.state === 'done' || item.state === 'failed')
    .sort((a, b) => b.created.localeCompare(a.created));
  // The newest done export is chosen at first: a new one is refused for six hours after one.
  const [chosenExport, setExportId] = useState<string | null>(null);
  const exportId = chosenExport ?? choices.find((item) => item.state === 'done')?.id ?? '';
  const farms = useQuery(farmsQuery);
  const [farmId, setFarmId] = useState('');
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [configErrors, setConfigErrors] = useState<Record<string, string>>({});

  const create = useMutation({
    mutationFn: (input: ExportProcessCreate) => createExportProcess(corpusId, input),
    onSuccess: (process) => {
      void queryClient.invalidateQueries({ queryKey: processKeys.all });
      void queryClient.invalidateQueries({ queryKey: exportKeys.corpus(corpusId) });
      onClose();
      void navigate({ to: '/process/$id/{-$selectedRun}', params: { id: process.id } });
    },
    onError: (error) => {
      if (!isValidationError(error)) {
        setErrors(toFormErrors(error, EXPORT_PROCESS_FIELDS, CREATE_EXPORT_ERROR));
        notifyError(error, CREATE_EXPORT_ERROR);
        return;
      }
      // A setting the worker refuses is named `configuration.<path>`: under its own input.
      const nested = Object.entries(error.fields).filter(([attr]) =>
        attr.startsWith('configuration.'),
      );
      setConfigErrors(
        Object.fromEntries(
          nested.map(([attr, messages]) => [attr.slice('configuration.'.length), messages[0]!]),
        ),
      );
      const rest = new ApiError(
        error.status,
        error.message,
        Object.fromEntries(
          Object.entries(error.fields).filter(([attr]) => !attr.startsWith('configuration.')),
        ),
      );
      setErrors(
        nested.length && !Object.keys(rest.fields).length
          ? NO_ERRORS
          : toFormErrors(rest, EXPORT_PROCESS_FIELDS, CREATE_EXPORT_ERROR),
      );
    },
  });

  const versionFailed = !!feature && (version.isError || version.data === null);
  const blocked =
    offline ??
    (!format
      ? NO_EXPORT_FORMAT
      : versionFailed
        ? WORKER_VERSION_ERROR
        : version.isPending
          ? 'Loading…'
          : null);

  const submit = () => {
    if (!format || blocked) return;
    const configuration = configurationOf(schema, inputs);
    const problems = Object.keys(configuration).length
      ? validateConfiguration(schema, configuration)
      : [];
    setConfigErrors(Object.fromEntries(problems.map((problem) => [problem.key, problem.message])));
    if (problems.length) return;
    setErrors(NO_ERRORS);
    create.mutate({
      format,
      export_id: exportId || null,
      configuration,
      farm_id: farmId || null,
      ...(selection ? { selection: true } : element ? { element_id: element.id } : {}),
    });
  };
  const fieldErrors = (field: (typeof EXPORT_PROCESS_FIELDS)[number]) => errors.fields[field] ?? [];

  return (
    <Modal
      title={EXPORT_PROCESS_TITLE}
      size="lg"
      onClose={onClose}
      pending={create.isPending}
      onSubmit={submit}
      footer={
        <SubmitActions
          label="Export"
          pending={create.isPending}
          blocked={blocked}
          onCancel={onClose}
        />
      }
    >
      <OfflineNote action="export" />
      <Labelled
        label="Elements"
        errors={[...fieldErrors('element_id'), ...fieldErrors('selection')]}
      >
        <p className="mt-1 text-slate-800">
          {selection
            ? `The selected elements of ${corpusName ?? 'the project'}`
            : element
              ? element.name
              : `Every element of ${corpusName ?? 'the project'}`}
        </p>
      </Labelled>
      {formats.length === 0 ? (
        <p role="alert" className="text-red-700">
          {NO_EXPORT_FORMAT}
        </p>
      ) : (
        <div>
          <label htmlFor={`${id}-format`} className={ui.label}>
            Format
          </label>
          <select
            id={`${id}-format`}
            className={ui.input}
            value={format ?? ''}
            disabled={create.isPending}
            onChange={(event) => {
              setFormat(event.target.value as ExportFormat);
              setConfigErrors({});
            }}
          >
            {formats.map((item) => (
              <option key={item.format} value={item.format}>
                {item.label}
              </option>
            ))}
          </select>
          <ErrorList messages={fieldErrors('format')} />
        </div>
      )}
      <div>
        <label htmlFor={`${id}-export`} className={ui.label}>
          Project export
        </label>
        <select
          id={`${id}-export`}
          className={ui.input}
          value={exportId}
          disabled={create.isPending}
          aria-invalid={fieldErrors('export_id').length > 0 || undefined}
          aria-describedby={`${id}-export-help`}
          onChange={(event) => setExportId(event.target.value)}
        >
          <option value="">{NEW_EXPORT}</option>
          {choices.map((item) => (
            <option key={item.id} value={item.id} disabled={item.state !== 'done'}>
              {exportLabel(item)}
            </option>
          ))}
        </select>
        <p id={`${id}-export-help`} className={ui.help}>
          The document is written from a project export: a done one, or a new one started now.
        </p>
        {exports.isError && (
          <p className="mt-1 text-sm text-slate-600">
            The project&apos;s exports could not be listed.
          </p>
        )}
        <ErrorList messages={fieldErrors('export_id')} />
      </div>
      {feature && (
        <Labelled
          label="Configuration"
          errors={[...fieldErrors('configuration'), ...fieldErrors('worker_run_id')]}
        >
          {version.isPending ? (
            <p role="status" className="mt-1 text-slate-600">
              Loading the export worker…
            </p>
          ) : versionFailed ? (
            <p role="alert" className="mt-1 text-red-700">
              {WORKER_VERSION_ERROR}
            </p>
          ) : hasFields ? (
            <div className="mt-2">
              <ConfigurationInputs
                schema={schema}
                inputs={inputs}
                errors={configErrors}
                disabled={create.isPending}
                onChange={(path, value) =>
                  setInputsByFormat((previous) => ({
                    ...previous,
                    [format!]: { ...inputs, [path]: value },
                  }))
                }
              />
            </div>
          ) : (
            <p className="mt-1 text-slate-600">This format has no settings.</p>
          )}
        </Labelled>
      )}
      <div>
        <label htmlFor={`${id}-farm`} className={ui.label}>
          Farm
        </label>
        <select
          id={`${id}-farm`}
          className={ui.input}
          value={farmId}
          disabled={farms.isPending || create.isPending}
          aria-invalid={fieldErrors('farm_id').length > 0 || undefined}
          onChange={(event) => setFarmId(event.target.value)}
        >
          {/* The server then picks its default farm. */}
          <option value="">Server default</option>
          {(farms.data ?? []).map((farm) => (
            <option key={farm.id} value={farm.id}>
              {farm.name}
            </option>
          ))}
        </select>
        <ErrorList messages={fieldErrors('farm_id')} />
      </div>
      <ErrorList messages={errors.general} />
    </Modal>
  );
}

/** A part of the form that is no single input, with its title and the errors naming it. */
function Labelled({
  label,
  errors,
  children,
}: {
  label: string;
  errors: string[];
  children: ReactNode;
}) {
  const id = useId();
  return (
    <section aria-labelledby={id}>
      <h3 id={id} className={ui.label}>
        {label}
      </h3>
      {children}
      <ErrorList messages={errors} />
    </section>
  );
}
