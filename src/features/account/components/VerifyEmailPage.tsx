import { useEffect, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { errorMessage } from '@/api/errors';
import { currentUserQuery } from '@/api/user';
import { useNeedsNetwork } from '@/components/NeedsNetwork';
import { useResendVerification, useVerifyEmail } from '../api';
import { AuthCard, Button, FormAlert, SuccessMessage, linkClass } from './Form';

export const EMAIL_VERIFIED = 'Your email address has been verified.';
export const INCOMPLETE_LINK =
  'This verification link is incomplete. Open the link from the email again, or ask for a new one.';

interface Props {
  uidb64?: string | undefined;
  token?: string | undefined;
}

/** Where the mailed link lands: it verifies as soon as it opens, or once the network is back. */
export function VerifyEmailPage({ uidb64, token }: Props) {
  const verify = useVerifyEmail();
  const resend = useResendVerification();
  const { data: user } = useQuery(currentUserQuery);
  const sentFor = useRef<string | null>(null);
  const complete = !!uidb64 && !!token;
  const offline = useNeedsNetwork();

  useEffect(() => {
    if (!uidb64 || !token || offline) return;
    // A token is single-use: StrictMode's second mount must not post it again.
    const key = `${uidb64}/${token}`;
    if (sentFor.current === key) return;
    sentFor.current = key;
    verify.mutate({ uidb64, token });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [uidb64, token, offline]);

  const failure = !complete ? INCOMPLETE_LINK : verify.isError ? errorMessage(verify.error) : null;

  return (
    <AuthCard title="Email verification" offlineAction="verify your email address">
      {failure ? (
        <div className="space-y-4">
          <FormAlert>{failure}</FormAlert>
          {user && !user.verified_email && (
            <Button
              type="button"
              variant="secondary"
              pending={resend.isPending}
              onClick={() => resend.mutate()}
            >
              Resend verification email
            </Button>
          )}
        </div>
      ) : verify.isSuccess ? (
        <div className="space-y-4">
          <SuccessMessage>{EMAIL_VERIFIED}</SuccessMessage>
          <p className="text-sm">
            <Link to="/browse/" className={linkClass}>
              Go to projects
            </Link>
          </p>
        </div>
      ) : offline && !verify.isPending ? null : (
        <p role="status" className="text-sm text-slate-600">
          Verifying your email address…
        </p>
      )}
    </AuthCard>
  );
}
