import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { corpusKeys, corpusQuery, hasRight } from '@/api/corpora';
import type { Corpus } from '@/api/types';
import { GuardedButton } from '@/components/GuardedButton';
import { OfflineNote, useNeedsNetwork } from '@/components/NeedsNetwork';
import { PageMessage } from '@/components/PageMessage';
import { ProjectPageHeader } from '@/components/ProjectPageHeader';
import { notify, notifyError } from '@/components/notifications/store';
import { useErrorNotification } from '@/components/notifications/useErrorNotification';
import { ui } from '@/components/styles';
import { useUpdateCorpus } from './api';
import { CorpusForm, type CorpusFormValues } from './CorpusForm';
import { DeleteCorpusDialog } from './DeleteCorpusDialog';
import { MembersSection } from './MembersSection';

export const ADMIN_REQUIRED = 'You must have an admin access to this project';

/** The project settings page (/corpus/{id}): details, members and deletion, for its admins. */
export function EditCorpusPage({ corpusId }: { corpusId: string }) {
  const corpus = useQuery(corpusQuery(corpusId));
  useErrorNotification(corpus.error);

  if (corpus.isPending) {
    return (
      <PageMessage width="max-w-3xl" loading>
        Loading…
      </PageMessage>
    );
  }
  if (corpus.isError) {
    return <PageMessage width="max-w-3xl">The project could not be loaded.</PageMessage>;
  }
  return <CorpusSettings corpus={corpus.data} />;
}

function CorpusSettings({ corpus }: { corpus: Corpus }) {
  const isAdmin = hasRight(corpus, 'admin');
  return (
    <section className="mx-auto max-w-3xl space-y-6 p-6" aria-labelledby="settings-heading">
      <ProjectPageHeader corpus={corpus} title="Project settings" headingId="settings-heading" />
      {isAdmin ? (
        <>
          <OfflineNote action="change the project's details, members or deletion" />
          <DetailsSection corpus={corpus} />
          <MembersSection corpus={corpus} />
          <DeleteSection corpus={corpus} />
        </>
      ) : (
        <p
          role="alert"
          className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-amber-900"
        >
          {ADMIN_REQUIRED}.
        </p>
      )}
    </section>
  );
}

function toFormValues(corpus: Corpus): CorpusFormValues {
  return {
    name: corpus.name,
    description: corpus.description ?? '',
    public: corpus.public,
    indexable: corpus.indexable,
    top_level_type: corpus.top_level_type,
  };
}

function DetailsSection({ corpus }: { corpus: Corpus }) {
  const update = useUpdateCorpus(corpus.id);
  return (
    <section aria-labelledby="details-heading" className={`${ui.card} p-6`}>
      <h2 id="details-heading" className="mb-4 text-lg font-semibold text-slate-900">
        Details
      </h2>
      <CorpusForm
        key={corpus.id}
        initial={toFormValues(corpus)}
        types={corpus.types}
        submitLabel="Save"
        pendingLabel="Saving…"
        pending={update.isPending}
        error={update.error}
        onSubmit={(values) =>
          update.mutate(values, {
            onSuccess: (saved) =>
              notify({ type: 'success', text: `Project "${saved.name}" has been updated.` }),
            onError: (error) => notifyError(error),
          })
        }
      />
    </section>
  );
}

function DeleteSection({ corpus }: { corpus: Corpus }) {
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const offline = useNeedsNetwork();
  return (
    <section aria-labelledby="delete-heading" className="rounded-lg border border-red-200 p-6">
      <h2 id="delete-heading" className="text-lg font-semibold text-red-800">
        Delete project
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Deleting a project removes its elements, annotations and members for everyone.
      </p>
      <GuardedButton
        blocked={offline}
        className={`${ui.dangerOutlineButton} mt-4`}
        onClick={() => setOpen(true)}
      >
        Delete this project
      </GuardedButton>
      <DeleteCorpusDialog
        corpus={open ? corpus : null}
        onClose={() => setOpen(false)}
        onDeleted={async () => {
          await navigate({ to: '/browse/' });
          // Only once this page is gone: while it watches the project, dropping it would
          // refetch a project that no longer exists.
          queryClient.removeQueries({ queryKey: corpusKeys.detail(corpus.id) });
        }}
      />
    </section>
  );
}
