import { Link } from '@tanstack/react-router';
import { ui } from './styles';

interface Named {
  id: string;
  name: string;
}

export interface ProjectPageHeaderProps {
  corpus: Named;
  /** A folder of the project the page is about, shown after it in the trail. */
  folder?: Named | null;
  title: string;
  /** The heading's id, for the section it names. */
  headingId: string;
}

/** The header of a page inside a project: the trail back to it, then the page's title. */
export function ProjectPageHeader({ corpus, folder, title, headingId }: ProjectPageHeaderProps) {
  return (
    <header>
      <p className="text-sm text-slate-500">
        <Link to="/browse/" className={ui.link}>
          Projects
        </Link>{' '}
        /{' '}
        <Link to="/browse/$corpusId" params={{ corpusId: corpus.id }} className={ui.link}>
          {corpus.name}
        </Link>
        {folder && (
          <>
            {' '}
            /{' '}
            <Link to="/element/$id" params={{ id: folder.id }} className={ui.link}>
              {folder.name}
            </Link>
          </>
        )}
      </p>
      <h1 id={headingId} className="mt-1 text-2xl font-semibold text-brand-900">
        {title}
      </h1>
    </header>
  );
}
