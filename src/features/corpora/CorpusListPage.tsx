import { useId, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { corpusListQuery, hasRight } from '@/api/corpora';
import { currentUserQuery, isVerified } from '@/api/user';
import type { Corpus } from '@/api/types';
import { useErrorNotification } from '@/components/notifications/useErrorNotification';
import { ui } from '@/components/styles';
import { DeleteCorpusDialog } from './DeleteCorpusDialog';
import { descriptionExcerpt, roleFromRights } from './text';

/** The Projects page (corpus-list): the projects the caller can read. */
export function CorpusListPage() {
  const corpora = useQuery(corpusListQuery);
  const { data: user = null } = useQuery(currentUserQuery);
  const [filter, setFilter] = useState('');
  const [toDelete, setToDelete] = useState<Corpus | null>(null);
  const filterId = useId();
  useErrorNotification(corpora.error);

  const visible = useMemo(() => {
    const needle = filter.trim().toLocaleLowerCase();
    const list = corpora.data ?? [];
    return needle ? list.filter((c) => c.name.toLocaleLowerCase().includes(needle)) : list;
  }, [corpora.data, filter]);

  return (
    <section className="mx-auto max-w-5xl p-6" aria-labelledby="projects-heading">
      <header className="flex flex-wrap items-center justify-between gap-4">
        <h1 id="projects-heading" className="text-2xl font-semibold text-brand-900">
          Projects
        </h1>
        {isVerified(user) && (
          <Link to="/corpus/new" className={ui.primaryButton}>
            Create a project
          </Link>
        )}
      </header>

      {!user && (
        <p className="mt-3 rounded-md border border-brand-100 bg-brand-50 px-3 py-2 text-sm text-brand-900">
          You are seeing public projects only.{' '}
          <Link to="/user/login" search={{ next: '/browse/' }} className={ui.link}>
            Log in
          </Link>{' '}
          to see your own projects.
        </p>
      )}

      {corpora.isPending ? (
        <p className="mt-6 text-slate-600" role="status">
          Loading…
        </p>
      ) : corpora.isError ? (
        <p className="mt-6 text-slate-600">The projects could not be loaded.</p>
      ) : corpora.data.length === 0 ? (
        <div className="mt-6 rounded-lg border border-dashed border-slate-300 p-8 text-center">
          <p className="font-medium text-slate-700">No projects to show.</p>
          <p className="mt-1 text-sm text-slate-500">
            {!user
              ? 'Log in to see the projects you are a member of.'
              : isVerified(user)
                ? 'Create a project to get started, or ask an admin of an existing one to add you.'
                : 'Ask an admin of an existing project to add you as a member.'}
          </p>
        </div>
      ) : (
        <>
          <div className="mt-6 max-w-sm">
            <label htmlFor={filterId} className={ui.label}>
              Filter by name
            </label>
            <input
              id={filterId}
              type="search"
              value={filter}
              onChange={(event) => setFilter(event.target.value)}
              className={ui.input}
              autoComplete="off"
            />
          </div>
          {visible.length === 0 ? (
            <p className="mt-6 text-slate-600">No project matches “{filter.trim()}”.</p>
          ) : (
            <ul className="mt-6 grid gap-4 sm:grid-cols-2" aria-label="Projects">
              {visible.map((corpus) => (
                <CorpusCard
                  key={corpus.id}
                  corpus={corpus}
                  showRole={user !== null}
                  onDelete={() => setToDelete(corpus)}
                />
              ))}
            </ul>
          )}
        </>
      )}

      <DeleteCorpusDialog corpus={toDelete} onClose={() => setToDelete(null)} />
    </section>
  );
}

function CorpusCard({
  corpus,
  showRole,
  onDelete,
}: {
  corpus: Corpus;
  showRole: boolean;
  onDelete: () => void;
}) {
  const titleId = useId();
  const excerpt = descriptionExcerpt(corpus.description ?? '');
  return (
    <li aria-labelledby={titleId} className={`${ui.card} flex flex-col gap-2`}>
      <div className="flex items-start justify-between gap-2">
        <h2 id={titleId} className="min-w-0 text-lg font-semibold break-words">
          <Link
            to="/browse/$corpusId"
            params={{ corpusId: corpus.id }}
            className="text-brand-700 hover:underline focus-visible:underline"
          >
            {corpus.name}
          </Link>
        </h2>
        {corpus.public && (
          <span className="shrink-0 rounded-full bg-brand-100 px-2 py-0.5 text-xs font-medium text-brand-700">
            Public
          </span>
        )}
      </div>
      {excerpt && <p className="text-sm text-slate-600">{excerpt}</p>}
      <div className="mt-auto flex flex-wrap items-center justify-between gap-2 pt-2">
        {showRole ? (
          <p className="text-sm text-slate-500">
            Your role:{' '}
            <span className="font-medium text-slate-700">{roleFromRights(corpus.rights)}</span>
          </p>
        ) : (
          <span />
        )}
        {hasRight(corpus, 'admin') && (
          <div className="flex gap-2">
            <Link
              to="/corpus/$corpusId"
              params={{ corpusId: corpus.id }}
              className={ui.secondaryButton}
              aria-label={`Edit ${corpus.name}`}
            >
              Edit
            </Link>
            <button
              type="button"
              className={ui.dangerOutlineButton}
              aria-label={`Delete ${corpus.name}`}
              onClick={onDelete}
            >
              Delete
            </button>
          </div>
        )}
      </div>
    </li>
  );
}
