import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import { GuardedButton } from '@/components/GuardedButton';
import { OfflineNote, useNeedsNetwork } from '@/components/NeedsNetwork';

/** The building blocks the account forms share, so every field is labelled the same way. */

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
}

export function TextField({ label, error, hint, className, ...input }: TextFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ');
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        className={`mt-1 block w-full rounded-md border px-3 py-2 text-sm shadow-sm focus:ring-2 focus:outline-none ${
          error
            ? 'border-red-400 focus:border-red-500 focus:ring-red-200'
            : 'border-slate-300 focus:border-brand-500 focus:ring-brand-100'
        }`}
        {...input}
      />
      {hint && (
        <p id={hintId} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

export function FormAlert({ children }: { children: ReactNode }) {
  return (
    <div
      role="alert"
      className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
    >
      {children}
    </div>
  );
}

export function SuccessMessage({ children }: { children: ReactNode }) {
  return (
    <div
      role="status"
      className="rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-900"
    >
      {children}
    </div>
  );
}

interface ButtonProps {
  children: ReactNode;
  disabled?: boolean;
  pending?: boolean;
  type?: 'submit' | 'button';
  variant?: 'primary' | 'secondary';
  onClick?: () => void;
}

/** Every account action is the server's: offline the button says so instead of failing. */
export function Button({
  children,
  disabled,
  pending,
  type = 'submit',
  variant = 'primary',
  onClick,
}: ButtonProps) {
  const offline = useNeedsNetwork();
  const look =
    variant === 'primary'
      ? 'bg-brand-600 text-white hover:bg-brand-700 disabled:bg-slate-300 disabled:text-slate-600'
      : 'border border-slate-300 bg-white text-slate-800 hover:bg-slate-50 disabled:text-slate-400';
  return (
    <GuardedButton
      type={type}
      blocked={offline}
      disabled={disabled || pending}
      aria-busy={pending || undefined}
      onClick={onClick}
      className={`inline-flex items-center justify-center rounded-md px-4 py-2 text-sm font-medium focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2 focus-visible:outline-none disabled:cursor-not-allowed aria-disabled:cursor-not-allowed aria-disabled:opacity-60 ${look}`}
    >
      {children}
    </GuardedButton>
  );
}

/**
 * A narrow centred card: the frame of the login, register and password screens. Offline, it
 * says what waits for the network ("log in") before the user tries.
 */
export function AuthCard({
  title,
  offlineAction,
  children,
}: {
  title: string;
  offlineAction?: string;
  children: ReactNode;
}) {
  return (
    <section className="mx-auto w-full max-w-md px-4 py-10">
      <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="mb-5 text-xl font-semibold text-brand-900">{title}</h1>
        {offlineAction && (
          <div className="mb-4">
            <OfflineNote action={offlineAction} />
          </div>
        )}
        {children}
      </div>
    </section>
  );
}

export const linkClass =
  'font-medium text-brand-600 underline-offset-2 hover:text-brand-700 hover:underline';
