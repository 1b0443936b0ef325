import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { errorMessage } from '@/api/errors';
import { SECRETS_PAGE_SIZE, secretListQuery, type SecretSummary } from '@/api/secrets';
import { GuardedButton } from '@/components/GuardedButton';
import { ListTable } from '@/components/ListTable';
import { useNeedsNetwork } from '@/components/NeedsNetwork';
import { PagedListState } from '@/components/PagedListState';
import { PaginationBar } from '@/components/PaginationBar';
import { notify } from '@/components/notifications/store';
import { ui } from '@/components/styles';
import { AddSecretModal } from './AddSecretModal';
import { DeleteSecretDialog } from './DeleteSecretDialog';

/**
 * The secret-list screen (spec 000 §2, enterprise): the names of the workers' secrets, never
 * their values, with Add and Delete. The API answers site admins only; anyone else reads its
 * refusal in place of the table.
 */
export function SecretsListPage({
  page,
  onPageChange,
}: {
  page: number;
  onPageChange: (page: number) => void;
}) {
  const secrets = useQuery(secretListQuery(page));
  const offline = useNeedsNetwork();
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<SecretSummary | null>(null);

  return (
    <section aria-labelledby="secrets-heading" className="mx-auto max-w-4xl space-y-4 p-6">
      <header className="flex flex-wrap items-center justify-between gap-4">
        <h1 id="secrets-heading" className="text-2xl font-semibold text-brand-900">
          Secrets
        </h1>
        <GuardedButton
          blocked={offline}
          className={ui.primaryButton}
          onClick={() => setAdding(true)}
        >
          Add a secret
        </GuardedButton>
      </header>
      <p className="text-sm text-slate-600">
        Credentials that workers read while their tasks run, when their version declares them.
        Values are stored encrypted and shown only on a secret&apos;s page, when asked.
      </p>
      <PagedListState
        query={secrets}
        failedRole="alert"
        failed={(error) => `The secrets could not be loaded: ${errorMessage(error)}`}
        empty="There are no secrets yet."
      >
        {(list) => (
          <>
            <ListTable caption="Secrets" columns={['Name', 'Updated']} last="Actions">
              {list.results.map((secret) => (
                <tr key={secret.id}>
                  <td className="py-2 pr-4 font-mono">
                    <Link to="/secret/$" params={{ _splat: secret.name }} className={ui.link}>
                      {secret.name}
                    </Link>
                  </td>
                  <td className="py-2 pr-4 text-slate-600">
                    {new Date(secret.updated).toLocaleString()}
                  </td>
                  <td className="py-2 text-right">
                    <GuardedButton
                      blocked={offline}
                      className={ui.secondaryButton}
                      aria-label={`Delete ${secret.name}`}
                      onClick={() => setDeleting(secret)}
                    >
                      Delete
                    </GuardedButton>
                  </td>
                </tr>
              ))}
            </ListTable>
            <PaginationBar
              count={list.count}
              page={page}
              pageSize={SECRETS_PAGE_SIZE}
              singular="secret"
              label="Secrets pages"
              onPageChange={onPageChange}
            />
          </>
        )}
      </PagedListState>
      {adding && (
        <AddSecretModal
          onClose={() => setAdding(false)}
          onCreated={(secret) => {
            setAdding(false);
            notify({ type: 'success', text: `The secret ${secret.name} was added.` });
          }}
        />
      )}
      {deleting && (
        <DeleteSecretDialog
          name={deleting.name}
          onClose={() => setDeleting(null)}
          onDeleted={() => {
            // The last row of a later page gone: its page no longer exists.
            if (secrets.data?.results.length === 1 && page > 1) onPageChange(page - 1);
          }}
        />
      )}
    </section>
  );
}
