import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { corpusQuery } from '@/api/corpora';
import { useErrorNotification } from '@/components/notifications/useErrorNotification';
import { ui } from '@/components/styles';
import { AllowedMetadataSection } from './AllowedMetadataSection';

/**
 * One project seen by a site admin: its allowed metadata here, and the links to the screens
 * that already manage the rest (the project settings: details, members, deletion).
 */
export function ProjectAdminPage({ corpusId }: { corpusId: string }) {
  const corpus = useQuery(corpusQuery(corpusId));
  useErrorNotification(corpus.error);

  if (corpus.isPending) {
    return (
      <p role="status" className="text-slate-600">
        Loading…
      </p>
    );
  }
  if (corpus.isError) return <p className="text-slate-600">The project could not be loaded.</p>;

  const { name, types } = corpus.data;
  return (
    <div className="space-y-6">
      <header className="space-y-2">
        <p className="text-sm text-slate-500">
          <Link to="/admin/projects/" className={ui.link}>
            Projects
          </Link>{' '}
          / {name}
        </p>
        <h2 className="text-lg font-semibold text-slate-900">{name}</h2>
        <p className="flex flex-wrap gap-4 text-sm">
          <Link to="/corpus/$corpusId" params={{ corpusId }} className={ui.link}>
            Project settings (details, members, deletion)
          </Link>
          <Link to="/browse/$corpusId" params={{ corpusId }} className={ui.link}>
            Browse the project
          </Link>
        </p>
      </header>
      <AllowedMetadataSection corpusId={corpusId} />
      <section aria-labelledby="types-heading" className={`${ui.card} space-y-2 p-6`}>
        <h2 id="types-heading" className="text-lg font-semibold text-slate-900">
          Element types
        </h2>
        {types.length === 0 ? (
          <p className="text-slate-600">This project has no element types.</p>
        ) : (
          <ul className="flex flex-wrap gap-2 text-sm">
            {types.map((type) => (
              <li
                key={type.id}
                className="flex items-center gap-1.5 rounded-full border border-slate-200 px-2 py-0.5"
              >
                <span
                  aria-hidden="true"
                  className="size-2.5 rounded-full"
                  style={{ backgroundColor: `#${type.color}` }}
                />
                {type.display_name}
                {type.folder && <span className="text-slate-500">(folder)</span>}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
