import { Link, useNavigate } from '@tanstack/react-router';
import { notify, notifyError } from '@/components/notifications/store';
import { ui } from '@/components/styles';
import { useCreateCorpus } from './api';
import { CorpusForm } from './CorpusForm';

const EMPTY = { name: '', description: '', public: false, indexable: false, top_level_type: null };

/** The project creation page (/corpus/new); a new project opens in the navigation page. */
export function CreateCorpusPage() {
  const navigate = useNavigate();
  const creation = useCreateCorpus();
  return (
    <section className="mx-auto max-w-2xl p-6" aria-labelledby="create-project-heading">
      <h1 id="create-project-heading" className="text-2xl font-semibold text-brand-900">
        Create a project
      </h1>
      <div className={`${ui.card} mt-6 p-6`}>
        <CorpusForm
          initial={EMPTY}
          submitLabel="Create"
          pendingLabel="Creating…"
          pending={creation.isPending}
          error={creation.error}
          offlineAction="create the project"
          onSubmit={(values) =>
            creation.mutate(
              { name: values.name, description: values.description, public: values.public },
              {
                onSuccess: (corpus) => {
                  notify({ type: 'success', text: `Project "${corpus.name}" has been created.` });
                  void navigate({ to: '/browse/$corpusId', params: { corpusId: corpus.id } });
                },
                onError: (error) => notifyError(error),
              },
            )
          }
          actions={
            <Link to="/browse/" className={ui.secondaryButton}>
              Cancel
            </Link>
          }
        />
      </div>
    </section>
  );
}
