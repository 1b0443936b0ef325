import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { notify } from '@/components/notifications/store';
import { useRegister } from '../api';
import {
  destinationAfterLogin,
  hasErrors,
  splitErrors,
  validateRegister,
  type RegisterValues,
} from '../validation';
import { useFormFields } from '../useFormFields';
import { AuthCard, Button, FormAlert, TextField, linkClass } from './Form';
import { PasswordPairFields } from './PasswordPairFields';

const SERVER_FIELDS = ['display_name', 'email', 'password'] as const;
const EMPTY: RegisterValues = { display_name: '', email: '', password: '', confirmation: '' };

export function RegisterPage({ next }: { next?: string | undefined }) {
  const navigate = useNavigate();
  const register = useRegister();
  const { values, errors, setErrors, change } = useFormFields(EMPTY);
  const [formError, setFormError] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (register.isPending) return;
    setFormError(null);
    const found = validateRegister(values);
    setErrors(found);
    if (hasErrors(found)) return;
    register.mutate(
      {
        display_name: values.display_name.trim(),
        email: values.email.trim(),
        password: values.password,
      },
      {
        onSuccess: (user) => {
          notify({
            type: 'success',
            text: `Your account has been created. A verification email has been sent to ${user.email}.`,
          });
          void navigate({ href: destinationAfterLogin(next), replace: true });
        },
        onError: (error) => {
          const split = splitErrors(error, SERVER_FIELDS);
          setErrors(split.fields);
          setFormError(split.form);
        },
      },
    );
  }

  return (
    <AuthCard title="Register" offlineAction="register">
      <form noValidate onSubmit={submit} className="space-y-4" aria-label="Register">
        {formError && <FormAlert>{formError}</FormAlert>}
        <TextField
          label="Display name"
          name="display_name"
          autoComplete="name"
          required
          value={values.display_name}
          error={errors.display_name}
          onChange={(event) => change('display_name', event.target.value)}
        />
        <TextField
          label="E-mail"
          type="email"
          name="email"
          autoComplete="email"
          required
          value={values.email}
          error={errors.email}
          onChange={(event) => change('email', event.target.value)}
        />
        <PasswordPairFields label="Password" values={values} errors={errors} onChange={change} />
        <div className="flex justify-end">
          <Button pending={register.isPending}>
            {register.isPending ? 'Creating your account…' : 'Register'}
          </Button>
        </div>
      </form>
      <p className="mt-6 border-t border-slate-100 pt-4 text-sm text-slate-600">
        Already have an account?{' '}
        <Link to="/user/login" search={next ? { next } : {}} className={linkClass}>
          Log in
        </Link>
      </p>
    </AuthCard>
  );
}
