import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { RoutePlaceholder } from '@/components/RoutePlaceholder';

export const Route = createFileRoute('/process/buckets/$corpusId/{-$folderId}')({
  staticData: { name: 'bucket-import' },
  beforeLoad: requireAccess({
    feature: 'ingest',
    login: true,
    verified: true,
    uuidParams: ['corpusId'],
  }),
  component: () => <RoutePlaceholder name="bucket-import" />,
});
