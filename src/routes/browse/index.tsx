import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { CorpusListPage } from '@/features/corpora/CorpusListPage';
import { loadCorpusList } from '@/features/corpora/loaders';

export const Route = createFileRoute('/browse/')({
  staticData: { name: 'corpus-list' },
  beforeLoad: requireAccess({}),
  loader: ({ context }) => loadCorpusList(context.queryClient),
  component: CorpusListPage,
});
