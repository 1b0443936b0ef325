import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { errorMessage } from '@/api/errors';
import { serverInfoQuery } from '@/api/serverInfo';
import { useLogin } from '../api';
import { canSubmitLogin, destinationAfterLogin } from '../validation';
import { AuthCard, Button, FormAlert, TextField, linkClass } from './Form';

export function LoginPage({ next }: { next?: string | undefined }) {
  const navigate = useNavigate();
  const login = useLogin();
  const { data: info } = useQuery(serverInfoQuery);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const complete = canSubmitLogin({ email, password });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!complete || login.isPending) return;
    login.mutate(
      { email: email.trim(), password },
      {
        onSuccess: () => navigate({ href: destinationAfterLogin(next), replace: true }),
      },
    );
  }

  return (
    <AuthCard title="Log in" offlineAction="log in">
      <form noValidate onSubmit={submit} className="space-y-4" aria-label="Log in">
        {login.isError && <FormAlert>{errorMessage(login.error)}</FormAlert>}
        <TextField
          label="E-mail"
          type="email"
          name="email"
          autoComplete="username"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <TextField
          label="Password"
          type="password"
          name="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <div className="flex items-center justify-between gap-4">
          <Link to="/user/password_reset" className={`text-sm ${linkClass}`}>
            Forgot your password
          </Link>
          <Button disabled={!complete} pending={login.isPending}>
            {login.isPending ? 'Logging in…' : 'Log in'}
          </Button>
        </div>
      </form>
      {info?.features.signup && (
        <p className="mt-6 border-t border-slate-100 pt-4 text-sm text-slate-600">
          No account yet?{' '}
          <Link to="/user/register" search={next ? { next } : {}} className={linkClass}>
            Register
          </Link>
        </p>
      )}
    </AuthCard>
  );
}
