import { useState, type FormEvent, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { User } from '@/api/types';
import { currentUserQuery } from '@/api/user';
import { OfflineNote } from '@/components/NeedsNetwork';
import { notify, notifyError } from '@/components/notifications/store';
import { useResendVerification, useUpdateProfile } from '../api';
import {
  hasErrors,
  splitErrors,
  validateDisplayName,
  validatePasswordChange,
  type FieldErrors,
  type PasswordChangeValues,
} from '../validation';
import { useFormFields } from '../useFormFields';
import { Button, TextField, linkClass } from './Form';
import { PasswordPairFields } from './PasswordPairFields';

export const DISPLAY_NAME_UPDATED = 'Your display name has been updated.';
export const PASSWORD_CHANGED = 'Your password has been changed.';

/** `children`: sections other features add below the account's own (the route composes them). */
export function ProfilePage({ children }: { children?: ReactNode } = {}) {
  const { data: user, isPending } = useQuery(currentUserQuery);
  if (isPending) {
    return (
      <p role="status" className="mx-auto max-w-3xl p-6 text-sm text-slate-600">
        Loading your profile…
      </p>
    );
  }
  if (!user) {
    return (
      <section className="mx-auto max-w-3xl p-6 text-sm">
        You are not logged in.{' '}
        <Link to="/user/login" search={{ next: '/user/profile' }} className={linkClass}>
          Log in
        </Link>
      </section>
    );
  }
  return (
    <section className="mx-auto max-w-3xl space-y-6 px-4 py-8">
      <h1 className="text-2xl font-semibold text-brand-900">Profile</h1>
      <OfflineNote action="change your profile" />
      <AccountPanel user={user} />
      <DisplayNameForm user={user} />
      <PasswordForm user={user} />
      {children}
    </section>
  );
}

function Panel({ title, children }: { title: string; children: ReactNode }) {
  const id = `profile-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section
      aria-labelledby={id}
      className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id={id} className="mb-4 text-base font-semibold text-slate-800">
        {title}
      </h2>
      {children}
    </section>
  );
}

function AccountPanel({ user }: { user: User }) {
  const resend = useResendVerification();
  return (
    <Panel title="Account">
      <dl className="grid grid-cols-[8rem_1fr] gap-x-4 gap-y-3 text-sm">
        <dt className="text-slate-500">E-mail</dt>
        <dd className="break-all text-slate-900">{user.email}</dd>
        <dt className="text-slate-500">Verification</dt>
        <dd className="flex flex-wrap items-center gap-3">
          {user.verified_email ? (
            <span className="rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-800 ring-1 ring-emerald-200">
              Verified
            </span>
          ) : (
            <>
              <span className="rounded-full bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-900 ring-1 ring-amber-200">
                Not verified
              </span>
              <Button
                type="button"
                variant="secondary"
                pending={resend.isPending}
                onClick={() => resend.mutate()}
              >
                Resend verification email
              </Button>
            </>
          )}
        </dd>
        {user.is_admin && (
          <>
            <dt className="text-slate-500">Role</dt>
            <dd className="text-slate-900">Site administrator</dd>
          </>
        )}
      </dl>
    </Panel>
  );
}

function DisplayNameForm({ user }: { user: User }) {
  const update = useUpdateProfile();
  const [displayName, setDisplayName] = useState(user.display_name);
  const [errors, setErrors] = useState<FieldErrors<'display_name'>>({});

  function submit(event: FormEvent) {
    event.preventDefault();
    if (update.isPending) return;
    const found = validateDisplayName({ display_name: displayName });
    setErrors(found);
    if (hasErrors(found)) return;
    update.mutate(
      { display_name: displayName.trim() },
      {
        onSuccess: (updated) => {
          setDisplayName(updated.display_name);
          notify({ type: 'success', text: DISPLAY_NAME_UPDATED });
        },
        onError: (error) => {
          const split = splitErrors(error, ['display_name'] as const);
          setErrors(split.fields);
          if (split.form) notifyError(split.form);
        },
      },
    );
  }

  return (
    <Panel title="Display name">
      <form noValidate onSubmit={submit} className="space-y-4" aria-label="Display name">
        <TextField
          label="Display name"
          name="display_name"
          autoComplete="name"
          required
          value={displayName}
          error={errors.display_name}
          onChange={(event) => {
            setDisplayName(event.target.value);
            setErrors({});
          }}
        />
        <div className="flex justify-end">
          <Button pending={update.isPending} disabled={displayName.trim() === user.display_name}>
            Save
          </Button>
        </div>
      </form>
    </Panel>
  );
}

const NO_PASSWORDS: PasswordChangeValues = { current_password: '', password: '', confirmation: '' };

function PasswordForm({ user }: { user: User }) {
  const update = useUpdateProfile();
  const needsCurrent = user.has_usable_password;
  const { values, setValues, errors, setErrors, change } = useFormFields(NO_PASSWORDS);
  const title = needsCurrent ? 'Change password' : 'Set a password';

  function submit(event: FormEvent) {
    event.preventDefault();
    if (update.isPending) return;
    const found = validatePasswordChange(values, needsCurrent);
    setErrors(found);
    if (hasErrors(found)) return;
    update.mutate(
      needsCurrent
        ? { current_password: values.current_password, password: values.password }
        : { password: values.password },
      {
        onSuccess: () => {
          setValues(NO_PASSWORDS);
          notify({ type: 'success', text: PASSWORD_CHANGED });
        },
        onError: (error) => {
          const split = splitErrors(error, ['current_password', 'password'] as const);
          setErrors(split.fields);
          if (split.form) notifyError(split.form);
        },
      },
    );
  }

  return (
    <Panel title={title}>
      <form noValidate onSubmit={submit} className="space-y-4" aria-label={title}>
        {!needsCurrent && (
          <p className="text-sm text-slate-600">
            Your account has no password yet. Set one to be able to log in with your e-mail address.
          </p>
        )}
        {needsCurrent && (
          <TextField
            label="Current password"
            type="password"
            name="current_password"
            autoComplete="current-password"
            required
            value={values.current_password}
            error={errors.current_password}
            onChange={(event) => change('current_password', event.target.value)}
          />
        )}
        <PasswordPairFields
          label="New password"
          values={values}
          errors={errors}
          onChange={change}
        />
        <div className="flex justify-end">
          <Button pending={update.isPending}>{title}</Button>
        </div>
      </form>
    </Panel>
  );
}
