import { Link, useNavigate, useRouter } from '@tanstack/react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { serverInfoQuery } from '@/api/serverInfo';
import { GuardedButton } from '@/components/GuardedButton';
import { useNeedsNetwork } from '@/components/NeedsNetwork';
import { notifyError } from '@/components/notifications/store';
import { useResendVerification } from './useResendVerification';

const primaryButton =
  'rounded bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700 disabled:opacity-60 aria-disabled:opacity-60';
const secondaryButton =
  'rounded px-4 py-2 text-sm font-medium text-brand-700 ring-1 ring-brand-100 hover:bg-brand-50';

function ErrorPage({
  title,
  children,
  actions,
}: {
  title: string;
  children: ReactNode;
  actions: ReactNode;
}) {
  return (
    <section className="mx-auto max-w-xl px-4 py-16 text-center">
      <h1 className="text-2xl font-semibold text-slate-900">{title}</h1>
      <div className="mt-3 text-slate-600">{children}</div>
      <div className="mt-8 flex flex-wrap justify-center gap-3">{actions}</div>
    </section>
  );
}

function HomepageLink() {
  return (
    <Link to="/" className={secondaryButton}>
      Homepage
    </Link>
  );
}

function GoBackButton() {
  const router = useRouter();
  return (
    <button type="button" onClick={() => router.history.back()} className={secondaryButton}>
      Go back
    </button>
  );
}

export function NotFoundPage() {
  return (
    <ErrorPage
      title="Page not found"
      actions={
        <>
          <HomepageLink />
          <GoBackButton />
        </>
      }
    >
      <p>This page does not exist, or it is not available to you.</p>
    </ErrorPage>
  );
}

export function UnreachablePage() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const retry = useMutation({
    // One attempt on demand: the query's own retries would keep the button busy for seconds.
    mutationFn: () => queryClient.fetchQuery({ ...serverInfoQuery, staleTime: 0, retry: false }),
    onSuccess: () => navigate({ to: '/' }),
    onError: (error) => notifyError(error),
  });
  return (
    <ErrorPage
      title="Server unreachable"
      actions={
        <button
          type="button"
          onClick={() => retry.mutate()}
          disabled={retry.isPending}
          className={primaryButton}
        >
          {retry.isPending ? 'Retrying…' : 'Retry'}
        </button>
      }
    >
      <p>
        Folia could not reach its server. Check your network connection, or try again in a moment:
        the server may be restarting or under maintenance.
      </p>
    </ErrorPage>
  );
}

export function UnverifiedPage() {
  const resend = useResendVerification();
  const offline = useNeedsNetwork();
  return (
    <ErrorPage
      title="Unverified email"
      actions={
        <>
          <GuardedButton
            blocked={offline}
            onClick={() => resend.mutate()}
            disabled={resend.isPending}
            className={primaryButton}
          >
            Resend verification email
          </GuardedButton>
          <HomepageLink />
          <GoBackButton />
        </>
      }
    >
      <p>
        This page needs a verified email address. Follow the link in the verification email we sent
        you, or ask for a new one.
      </p>
    </ErrorPage>
  );
}
