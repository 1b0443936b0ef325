import { useState, type FormEvent } from 'react';
import { Link } from '@tanstack/react-router';
import { useConfirmPasswordReset } from '../api';
import { hasErrors, splitErrors, validateReset, type ResetValues } from '../validation';
import { useFormFields } from '../useFormFields';
import { AuthCard, Button, FormAlert, SuccessMessage, linkClass } from './Form';
import { PasswordPairFields } from './PasswordPairFields';

export const PASSWORD_RESET_DONE =
  'Your password has been reset. You can now log in with your new password.';

interface Props {
  uidb64: string;
  token: string;
}

export function PasswordResetConfirmPage({ uidb64, token }: Props) {
  const confirm = useConfirmPasswordReset();
  const { values, errors, setErrors, change } = useFormFields<ResetValues, 'token'>({
    password: '',
    confirmation: '',
  });
  const [formError, setFormError] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (confirm.isPending) return;
    setFormError(null);
    const found = validateReset(values);
    setErrors(found);
    if (hasErrors(found)) return;
    confirm.mutate(
      { uidb64, token, password: values.password },
      {
        onError: (error) => {
          const split = splitErrors(error, ['password', 'token'] as const);
          setErrors(split.fields);
          setFormError(split.form);
        },
      },
    );
  }

  if (confirm.isSuccess) {
    return (
      <AuthCard title="Choose a new password">
        <div className="space-y-4">
          <SuccessMessage>{PASSWORD_RESET_DONE}</SuccessMessage>
          <p className="text-sm">
            <Link to="/user/login" className={linkClass}>
              Log in
            </Link>
          </p>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Choose a new password" offlineAction="reset your password">
      <form noValidate onSubmit={submit} className="space-y-4" aria-label="Choose a new password">
        {/* The token comes from the link, not a field: its error sits above the form. */}
        {errors.token && (
          <FormAlert>
            {errors.token}{' '}
            <Link to="/user/password_reset" className="font-medium underline">
              Request a new link
            </Link>
          </FormAlert>
        )}
        {formError && <FormAlert>{formError}</FormAlert>}
        <PasswordPairFields
          label="New password"
          values={values}
          errors={errors}
          onChange={change}
        />
        <div className="flex justify-end">
          <Button pending={confirm.isPending}>Reset password</Button>
        </div>
      </form>
    </AuthCard>
  );
}
