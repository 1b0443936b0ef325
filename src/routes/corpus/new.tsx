import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { CreateCorpusPage } from '@/features/corpora/CreateCorpusPage';

export const Route = createFileRoute('/corpus/new')({
  staticData: { name: 'corpus-create' },
  beforeLoad: requireAccess({ login: true, verified: true }),
  component: CreateCorpusPage,
});
