import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { PaginationBar } from '@/components/PaginationBar';
import { useErrorNotification } from '@/components/notifications/useErrorNotification';
import { ui } from '@/components/styles';
import { ADMIN_PAGE_SIZE, adminCorporaQuery, type ListQuery } from './api';
import { SearchBox } from '@/components/SearchBox';
import { ListTable } from '@/components/ListTable';

/** Every project of the site, private ones included, with its member count. */
export function ProjectsAdminPage({
  query,
  onQueryChange,
}: {
  query: ListQuery;
  onQueryChange: (query: ListQuery) => void;
}) {
  const corpora = useQuery(adminCorporaQuery(query));
  useErrorNotification(corpora.error);

  return (
    <section aria-labelledby="projects-heading" className="space-y-4">
      <h2 id="projects-heading" className="text-lg font-semibold text-slate-900">
        Projects
      </h2>
      <SearchBox
        label="Search by name"
        value={query.search}
        onSearch={(search) => onQueryChange({ page: 1, search })}
      />
      {corpora.isPending ? (
        <p role="status" className="text-slate-600">
          Loading…
        </p>
      ) : corpora.isError ? (
        <p className="text-slate-600">The projects could not be loaded.</p>
      ) : corpora.data.count === 0 ? (
        <p className="text-slate-600">
          {query.search ? 'No project matches this search.' : 'There are no projects yet.'}
        </p>
      ) : (
        <>
          <ListTable caption="Projects" columns={['Name', 'Visibility', 'Members']} last="Links">
            {corpora.data.results.map((corpus) => (
              <tr key={corpus.id}>
                <td className="py-2 pr-4 font-medium">
                  <Link
                    to="/admin/projects/$corpusId"
                    params={{ corpusId: corpus.id }}
                    className={ui.link}
                  >
                    {corpus.name}
                  </Link>
                </td>
                <td className="py-2 pr-4 text-slate-600">{corpus.public ? 'Public' : 'Private'}</td>
                <td className="py-2 pr-4 text-slate-600">{corpus.members}</td>
                <td className="py-2 text-right">
                  <Link
                    to="/browse/$corpusId"
                    params={{ corpusId: corpus.id }}
                    className={ui.link}
                    aria-label={`Browse ${corpus.name}`}
                  >
                    Browse
                  </Link>
                </td>
              </tr>
            ))}
          </ListTable>
          <PaginationBar
            count={corpora.data.count}
            page={query.page}
            pageSize={ADMIN_PAGE_SIZE}
            singular="project"
            label="Projects pages"
            onPageChange={(page) => onQueryChange({ ...query, page })}
          />
        </>
      )}
    </section>
  );
}
