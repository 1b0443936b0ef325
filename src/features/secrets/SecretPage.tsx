import { useEffect, useState } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { errorMessage } from '@/api/errors';
import { revealSecret } from '@/api/secrets';
import { GuardedButton } from '@/components/GuardedButton';
import { useNeedsNetwork } from '@/components/NeedsNetwork';
import { ui } from '@/components/styles';
import { DeleteSecretDialog } from './DeleteSecretDialog';

type Shown =
  | { state: 'hidden' }
  | { state: 'loading' }
  | { state: 'shown'; content: string }
  | { state: 'failed'; message: string };

/**
 * The secret-details screen (`/secret/{name+}`, enterprise): the value stays hidden until
 * Reveal is pressed, is then fetched and held by this screen only (no query cache, nothing
 * persisted), and is forgotten on Hide or on leaving.
 */
export function SecretPage({ name }: { name: string }) {
  const [shown, setShown] = useState<Shown>({ state: 'hidden' });
  const [deleting, setDeleting] = useState(false);
  const offline = useNeedsNetwork();
  const navigate = useNavigate();

  // Another secret's page starts hidden again.
  useEffect(() => setShown({ state: 'hidden' }), [name]);

  const reveal = () => {
    setShown({ state: 'loading' });
    revealSecret(name).then(
      (secret) => setShown({ state: 'shown', content: secret.content }),
      (error: unknown) => setShown({ state: 'failed', message: errorMessage(error) }),
    );
  };

  return (
    <section aria-labelledby="secret-heading" className="mx-auto max-w-4xl space-y-4 p-6">
      <p className="text-sm">
        <Link to="/secret/" className={ui.link}>
          Secrets
        </Link>
      </p>
      <header className="flex flex-wrap items-center justify-between gap-4">
        <h1 id="secret-heading" className="font-mono text-2xl font-semibold text-brand-900">
          {name}
        </h1>
        <GuardedButton
          blocked={offline}
          className={ui.dangerButton}
          onClick={() => setDeleting(true)}
        >
          Delete
        </GuardedButton>
      </header>
      <div className={`${ui.card} space-y-3`}>
        <h2 className="text-sm font-medium text-slate-700">Value</h2>
        {shown.state === 'shown' ? (
          <pre
            aria-label="Value"
            className="overflow-x-auto rounded bg-slate-50 p-3 font-mono text-sm whitespace-pre-wrap break-all"
          >
            {shown.content}
          </pre>
        ) : (
          <p className="font-mono text-slate-500" aria-label="Hidden value">
            ••••••••••••
          </p>
        )}
        {shown.state === 'failed' && (
          <p role="alert" className="text-sm text-red-700">
            The value could not be revealed: {shown.message}
          </p>
        )}
        {shown.state === 'shown' ? (
          <button
            type="button"
            className={ui.secondaryButton}
            onClick={() => setShown({ state: 'hidden' })}
          >
            Hide
          </button>
        ) : (
          <GuardedButton
            blocked={offline ?? (shown.state === 'loading' ? 'Revealing…' : null)}
            className={ui.secondaryButton}
            onClick={reveal}
          >
            Reveal
          </GuardedButton>
        )}
      </div>
      {deleting && (
        <DeleteSecretDialog
          name={name}
          onClose={() => setDeleting(false)}
          onDeleted={() => void navigate({ to: '/secret/' })}
        />
      )}
    </section>
  );
}
