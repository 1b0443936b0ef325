/**
 * Create classifications and Validate classifications for the selected elements of one project
 * (spec 001 §7: POST /classifications/selection/ in mode create or validate). Creating needs a
 * class; validating validates every pending classification, or those of one class.
 */
import { useId, useMemo, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { invalidateElements } from '@/api/elements';
import { classifySelection, validateSelectionClassifications } from '@/api/selection';
import type { MlClassRef } from '@/api/types';
import { ErrorList } from '@/components/modal/ErrorList';
import { Modal } from '@/components/modal/Modal';
import { SubmitActions } from '@/components/modal/ModalActions';
import { OfflineNote, useNeedsNetwork } from '@/components/NeedsNetwork';
import { reportFormError } from '@/components/notifications/reportFormError';
import { notify } from '@/components/notifications/store';
import { ui } from '@/components/styles';
import { NO_ERRORS, type FormErrors } from '@/lib/formErrors';
import { storedClassesQuery } from '@/offline/queries';
import { countOf } from './bulkActions';

/** How many matching classes the picker lists before 'and N more classes' (as the panel). */
const SHOWN_CLASSES = 10;
export const PICK_A_CLASS = 'Pick a class first.';
const FIELDS = ['ml_class', 'corpus_id'] as const;

const MODES = {
  create: {
    title: 'Create classifications',
    label: 'Create',
    errorPrefix: 'An error occurred while creating the classifications',
    done: (count: number, name: string | null) =>
      `${countOf(count, 'classification')} of ${name} created.`,
  },
  validate: {
    title: 'Validate classifications',
    label: 'Validate',
    errorPrefix: 'An error occurred while validating the classifications',
    done: (count: number) => `${countOf(count, 'classification')} validated.`,
  },
} as const;

/** The classes whose name holds every word of a search, in name order. */
export type ClassMatcher = (classes: readonly MlClassRef[], search: string) => MlClassRef[];

export interface ClassifySelectionModalProps {
  /** The class search of the details panel, so both pickers find the same classes. */
  matchClasses: ClassMatcher;
  mode: 'create' | 'validate';
  corpusId: string;
  corpusName: string;
  count: number;
  onClose: () => void;
}

export function ClassifySelectionModal({
  matchClasses,
  mode,
  corpusId,
  corpusName,
  count,
  onClose,
}: ClassifySelectionModalProps) {
  const texts = MODES[mode];
  const classes = useQuery(storedClassesQuery(corpusId));
  const [chosen, setChosen] = useState<MlClassRef | null>(null);
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: () =>
      mode === 'create'
        ? classifySelection(corpusId, chosen!.id)
        : validateSelectionClassifications(corpusId, chosen?.id ?? null),
    onSuccess: async (result) => {
      notify({ type: 'success', text: texts.done(result.count, chosen?.name ?? null) });
      onClose();
      await invalidateElements(queryClient);
    },
    onError: (error) => setErrors(reportFormError(error, FIELDS, texts.errorPrefix)),
  });
  const offline = useNeedsNetwork();
  const blocked = offline ?? (mode === 'create' && !chosen ? PICK_A_CLASS : null);
  const classErrors = FIELDS.flatMap((field) => errors.fields[field] ?? []);

  return (
    <Modal
      title={texts.title}
      onClose={onClose}
      pending={mutation.isPending}
      onSubmit={() => {
        if (blocked) return;
        setErrors(NO_ERRORS);
        mutation.mutate();
      }}
      footer={
        <SubmitActions
          label={texts.label}
          pending={mutation.isPending}
          onCancel={onClose}
          blocked={blocked}
        />
      }
    >
      <OfflineNote action={mode === 'create' ? 'create classifications' : 'validate them'} />
      <p>
        {mode === 'create' ? 'Each of the ' : 'The pending classifications of the '}
        {countOf(count, 'selected element')} of{' '}
        <strong className="font-semibold text-slate-900">{corpusName}</strong>
        {mode === 'create'
          ? ' gets a manual classification of the class you pick, unless it has one.'
          : ' are validated: all of them, or those of the class you pick.'}
      </p>
      {classes.isPending ? (
        <p role="status">Loading classes…</p>
      ) : classes.isError ? (
        <p className="text-red-700">The classes of this project could not be loaded.</p>
      ) : (
        <ClassPicker
          matchClasses={matchClasses}
          classes={classes.data}
          value={chosen}
          onChange={(next) => {
            setChosen(next);
            setErrors(NO_ERRORS);
          }}
          optional={mode === 'validate'}
        />
      )}
      <ErrorList messages={[...classErrors, ...errors.general]} />
    </Modal>
  );
}

function ClassPicker({
  matchClasses,
  classes,
  value,
  onChange,
  optional,
}: {
  matchClasses: ClassMatcher;
  classes: readonly MlClassRef[];
  value: MlClassRef | null;
  onChange: (next: MlClassRef | null) => void;
  optional: boolean;
}) {
  const [search, setSearch] = useState('');
  const matches = useMemo(() => matchClasses(classes, search), [matchClasses, classes, search]);
  const shown = matches.slice(0, SHOWN_CLASSES);
  const inputId = useId();
  if (classes.length === 0) {
    return <p className="text-sm text-slate-600">This project has no classes.</p>;
  }
  return (
    <div>
      <label htmlFor={inputId} className={ui.label}>
        Class{optional ? ' (optional)' : ''}
      </label>
      <input
        id={inputId}
        className={ui.input}
        value={search}
        placeholder="Search a class"
        onChange={(event) => setSearch(event.target.value)}
      />
      <ul
        role="listbox"
        aria-label="Classes"
        className="mt-1 max-h-60 overflow-y-auto rounded border border-slate-200"
      >
        {optional && (
          <ClassOption
            label="All classes"
            selected={value === null}
            onPick={() => onChange(null)}
          />
        )}
        {shown.map((mlClass) => (
          <ClassOption
            key={mlClass.id}
            label={mlClass.name}
            selected={value?.id === mlClass.id}
            onPick={() => onChange(mlClass)}
          />
        ))}
        {matches.length > shown.length && (
          <li className="px-2 py-1 text-xs text-slate-500">
            and {matches.length - shown.length} more classes
          </li>
        )}
        {matches.length === 0 && <li className="px-2 py-1 text-xs text-slate-500">No class</li>}
      </ul>
      <p className={ui.help} aria-live="polite">
        {value ? `Picked class: ${value.name}` : optional ? 'All classes' : PICK_A_CLASS}
      </p>
    </div>
  );
}

function ClassOption({
  label,
  selected,
  onPick,
}: {
  label: string;
  selected: boolean;
  onPick: () => void;
}) {
  return (
    <li
      role="option"
      aria-selected={selected}
      tabIndex={0}
      className={`cursor-pointer px-2 py-1 text-sm hover:bg-slate-100 ${selected ? 'bg-brand-50 font-medium text-brand-900' : ''}`}
      onClick={onPick}
      onKeyDown={(event) => {
        if (event.key === 'Enter' || event.key === ' ') {
          event.preventDefault();
          onPick();
        }
      }}
    >
      <span aria-hidden="true" className="inline-block w-4 text-brand-700">
        {selected ? '✓' : ''}
      </span>
      {label}
    </li>
  );
}
