import { useState, type FormEvent } from 'react';
import { Link } from '@tanstack/react-router';
import { useRequestPasswordReset } from '../api';
import { hasErrors, splitErrors, validateResetRequest, type FieldErrors } from '../validation';
import { AuthCard, Button, FormAlert, SuccessMessage, TextField, linkClass } from './Form';

// The same answer whether or not the address has an account, as the server gives.
export const RESET_REQUESTED =
  'If an account exists for this address, an email with a link to reset your password has been sent.';

export function PasswordResetRequestPage() {
  const request = useRequestPasswordReset();
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<FieldErrors<'email'>>({});
  const [formError, setFormError] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (request.isPending) return;
    setFormError(null);
    const found = validateResetRequest({ email });
    setErrors(found);
    if (hasErrors(found)) return;
    request.mutate(email.trim(), {
      onError: (error) => {
        const split = splitErrors(error, ['email'] as const);
        setErrors(split.fields);
        setFormError(split.form);
      },
    });
  }

  return (
    <AuthCard title="Reset your password" offlineAction="send a reset link">
      {request.isSuccess ? (
        <div className="space-y-4">
          <SuccessMessage>{RESET_REQUESTED}</SuccessMessage>
          <p className="text-sm">
            <Link to="/user/login" className={linkClass}>
              Back to login
            </Link>
          </p>
        </div>
      ) : (
        <form noValidate onSubmit={submit} className="space-y-4" aria-label="Reset your password">
          <p className="text-sm text-slate-600">
            Enter the e-mail address of your account and we will send you a link to choose a new
            password.
          </p>
          {formError && <FormAlert>{formError}</FormAlert>}
          <TextField
            label="E-mail"
            type="email"
            name="email"
            autoComplete="email"
            required
            value={email}
            error={errors.email}
            onChange={(event) => {
              setEmail(event.target.value);
              setErrors({});
            }}
          />
          <div className="flex items-center justify-between gap-4">
            <Link to="/user/login" className={`text-sm ${linkClass}`}>
              Back to login
            </Link>
            <Button pending={request.isPending}>Send reset link</Button>
          </div>
        </form>
      )}
    </AuthCard>
  );
}
