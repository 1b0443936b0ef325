import { useId, useState } from 'react';
import { errorMessage, fieldErrors } from '@/api/errors';
import { BUDGET_NAME_MAX_LENGTH, type Budget, type BudgetInput } from '@/api/budgets';
import { OfflineNote, useNeedsNetwork } from '@/components/NeedsNetwork';
import { ErrorList } from '@/components/modal/ErrorList';
import { Modal } from '@/components/modal/Modal';
import { SubmitActions } from '@/components/modal/ModalActions';
import { ui } from '@/components/styles';
import { useCreateBudget, useUpdateBudget } from './api';
import { amountProblem } from './money';

const FIELDS = ['name', 'amount', 'currency'] as const;

/** "Add a budget" or "Edit a budget": a name, an amount and its ISO 4217 currency. */
export function BudgetFormModal({
  budget,
  onClose,
  onSaved,
}: {
  /** The budget to edit; none to create one. */
  budget?: Budget;
  onClose: () => void;
  onSaved: (budget: Budget) => void;
}) {
  const id = useId();
  const [values, setValues] = useState<BudgetInput>({
    name: budget?.name ?? '',
    amount: budget?.amount ?? '',
    currency: budget?.currency ?? 'EUR',
  });
  const create = useCreateBudget();
  const update = useUpdateBudget(budget?.id ?? '');
  const mutation = budget ? update : create;
  const offline = useNeedsNetwork();
  const problems: Partial<Record<(typeof FIELDS)[number], string>> = {
    ...(!values.name.trim() && { name: 'A name is required.' }),
    ...(amountProblem(values.amount) && { amount: amountProblem(values.amount)! }),
    ...(!/^[A-Za-z]{3}$/.test(values.currency.trim()) && {
      currency: 'Enter a three-letter ISO 4217 code, such as EUR.',
    }),
  };
  const blocked = offline ?? Object.values(problems)[0] ?? null;
  const errors = fieldErrors(mutation.error);
  const otherErrors = mutation.error
    ? Object.keys(errors).length
      ? Object.entries(errors)
          .filter(([attr]) => !(FIELDS as readonly string[]).includes(attr))
          .flatMap(([, messages]) => messages)
      : [errorMessage(mutation.error)]
    : [];

  const submit = () => {
    if (blocked) return;
    const input = {
      name: values.name.trim(),
      amount: values.amount.trim(),
      currency: values.currency.trim().toUpperCase(),
    };
    if (budget) update.mutate(input, { onSuccess: onSaved });
    else create.mutate(input, { onSuccess: onSaved });
  };

  const field = (
    name: (typeof FIELDS)[number],
    label: string,
    props: React.InputHTMLAttributes<HTMLInputElement>,
  ) => {
    // A problem is shown once the field was touched; the server's answer always.
    const shown = (values[name] && problems[name] ? [problems[name]] : null) ?? errors[name];
    return (
      <div>
        <label htmlFor={`${id}-${name}`} className={ui.label}>
          {label}
        </label>
        <input
          id={`${id}-${name}`}
          type="text"
          required
          value={values[name]}
          autoComplete="off"
          aria-invalid={shown?.length ? true : undefined}
          aria-describedby={shown?.length ? `${id}-${name}-error` : undefined}
          onChange={(event) => setValues((old) => ({ ...old, [name]: event.target.value }))}
          className={ui.input}
          {...props}
        />
        {shown && shown.length > 0 && (
          <p id={`${id}-${name}-error`} className={ui.fieldError}>
            {shown.join(' ')}
          </p>
        )}
      </div>
    );
  };

  return (
    <Modal
      title={budget ? 'Edit a budget' : 'Add a budget'}
      onClose={onClose}
      pending={mutation.isPending}
      onSubmit={submit}
      footer={
        <SubmitActions
          label={budget ? 'Save' : 'Add'}
          pending={mutation.isPending}
          onCancel={onClose}
          blocked={blocked}
        />
      }
    >
      <OfflineNote action={budget ? 'edit a budget' : 'add a budget'} />
      {field('name', 'Name', { maxLength: BUDGET_NAME_MAX_LENGTH })}
      <div className="grid grid-cols-3 gap-3">
        <div className="col-span-2">
          {field('amount', 'Amount', { inputMode: 'decimal', placeholder: '1500.00' })}
        </div>
        {field('currency', 'Currency', { maxLength: 3, placeholder: 'EUR', spellCheck: false })}
      </div>
      <ErrorList messages={otherErrors} />
    </Modal>
  );
}
