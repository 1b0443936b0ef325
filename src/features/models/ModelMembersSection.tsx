import { useId, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { errorMessage, fieldErrors } from '@/api/errors';
import { modelMembersQuery, type Model } from '@/api/models';
import { LEVELS } from '@/api/types';
import { GuardedButton } from '@/components/GuardedButton';
import { ListTable } from '@/components/ListTable';
import { useNeedsNetwork } from '@/components/NeedsNetwork';
import { notifyError } from '@/components/notifications/store';
import { useErrorNotification } from '@/components/notifications/useErrorNotification';
import { ui } from '@/components/styles';
import { useModelMemberChange } from './api';

const LEVEL_OPTIONS = [
  { level: LEVELS.guest, label: 'Guest' },
  { level: LEVELS.contributor, label: 'Contributor' },
  { level: LEVELS.admin, label: 'Admin' },
];

function levelLabel(level: number): string {
  return [...LEVEL_OPTIONS].reverse().find((option) => level >= option.level)?.label ?? 'Guest';
}

/** Who may read, edit or manage the model (spec 000 §6 model rights); its admins change it. */
export function ModelMembersSection({ model }: { model: Model }) {
  const members = useQuery(modelMembersQuery(model.id));
  useErrorNotification(members.error);
  const change = useModelMemberChange(model.id);
  const offline = useNeedsNetwork();
  const id = useId();
  const [email, setEmail] = useState('');
  const [level, setLevel] = useState<number>(LEVELS.guest);
  const errors = fieldErrors(change.error);
  const emailError = errors.user_email?.join(' ');
  const formError = change.error && !emailError ? errorMessage(change.error) : null;
  const trimmed = email.trim();

  const add = (event: FormEvent) => {
    event.preventDefault();
    if (!trimmed || offline || change.isPending) return;
    change.mutate({ add: { email: trimmed, level } }, { onSuccess: () => setEmail('') });
  };

  return (
    <section aria-labelledby="members-heading" className={`${ui.card} space-y-3 p-6`}>
      <h2 id="members-heading" className="text-lg font-semibold text-slate-900">
        Members
      </h2>
      {members.isPending ? (
        <p role="status" className="text-slate-600">
          Loading…
        </p>
      ) : members.isError ? (
        <p className="text-slate-600">The members could not be loaded.</p>
      ) : (
        <ListTable
          caption={`Members of ${model.name}`}
          columns={['Name', 'E-mail', 'Role']}
          last="Actions"
        >
          {members.data.results.map((member) => (
            <tr key={member.id}>
              <td className="py-2 pr-4 font-medium">{member.user.display_name}</td>
              <td className="py-2 pr-4 text-slate-600">{member.user.email}</td>
              <td className="py-2 pr-4 text-slate-600">{levelLabel(member.level)}</td>
              <td className="py-2 text-right">
                <GuardedButton
                  blocked={offline}
                  disabled={change.isPending}
                  className={ui.dangerOutlineButton}
                  aria-label={`Remove ${member.user.display_name}`}
                  onClick={() =>
                    change.mutate({ remove: member.id }, { onError: (error) => notifyError(error) })
                  }
                >
                  Remove
                </GuardedButton>
              </td>
            </tr>
          ))}
        </ListTable>
      )}
      <form onSubmit={add} noValidate aria-label="Add a member" className="space-y-1">
        <div className="flex flex-wrap items-end gap-3">
          <div className="min-w-56 flex-1">
            <label htmlFor={`${id}-email`} className={ui.label}>
              E-mail address
            </label>
            <input
              id={`${id}-email`}
              type="email"
              value={email}
              autoComplete="off"
              aria-invalid={emailError ? true : undefined}
              aria-describedby={emailError ? `${id}-email-error` : undefined}
              onChange={(event) => {
                setEmail(event.target.value);
                if (change.error) change.reset();
              }}
              className={ui.input}
            />
          </div>
          <div>
            <label htmlFor={`${id}-level`} className={ui.label}>
              Role
            </label>
            <select
              id={`${id}-level`}
              value={level}
              onChange={(event) => setLevel(Number(event.target.value))}
              className={ui.input}
            >
              {LEVEL_OPTIONS.map((option) => (
                <option key={option.level} value={option.level}>
                  {option.label}
                </option>
              ))}
            </select>
          </div>
          <GuardedButton
            type="submit"
            blocked={offline}
            disabled={!trimmed || change.isPending}
            className={ui.primaryButton}
          >
            Add member
          </GuardedButton>
        </div>
        {emailError && (
          <p id={`${id}-email-error`} className={ui.fieldError}>
            {emailError}
          </p>
        )}
        {formError && <p className={ui.fieldError}>{formError}</p>}
      </form>
    </section>
  );
}
