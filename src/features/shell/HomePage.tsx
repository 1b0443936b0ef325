import { Link, Navigate } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { serverInfoQuery } from '@/api/serverInfo';
import { currentUserQuery } from '@/api/user';
import { useLoginSearch } from './loginNext';

/** The welcome page for visitors; a logged-in user lands on the projects instead. */
export function HomePage() {
  const info = useQuery(serverInfoQuery).data;
  const user = useQuery(currentUserQuery).data;
  const search = useLoginSearch();
  // The route redirects too; this covers logging in while the page is open.
  if (user) return <Navigate to="/browse/" replace />;
  return (
    <section className="mx-auto max-w-3xl px-4 py-16">
      <h1 className="text-3xl font-semibold tracking-tight text-brand-900">Welcome to Folia</h1>
      <p className="mt-4 text-lg text-slate-700">
        Browse, annotate, transcribe and classify document images, organise them into datasets and
        run machine-learning processes on them. It keeps working when the network does not.
      </p>
      <div className="mt-8 flex flex-wrap gap-3">
        <Link
          to="/user/login"
          search={search}
          className="rounded bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700"
        >
          Log in
        </Link>
        {info?.features.signup && (
          <Link
            to="/user/register"
            search={search}
            className="rounded px-4 py-2 text-sm font-medium text-brand-700 ring-1 ring-brand-100 hover:bg-brand-50"
          >
            Register
          </Link>
        )}
        <Link
          to="/browse/"
          className="rounded px-4 py-2 text-sm font-medium text-brand-700 hover:bg-brand-50"
        >
          Browse public projects
        </Link>
      </div>
    </section>
  );
}
