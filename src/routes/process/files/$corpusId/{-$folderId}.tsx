import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { RoutePlaceholder } from '@/components/RoutePlaceholder';

export const Route = createFileRoute('/process/files/$corpusId/{-$folderId}')({
  staticData: { name: 'files-import' },
  beforeLoad: requireAccess({ login: true, verified: true, uuidParams: ['corpusId'] }),
  component: () => <RoutePlaceholder name="files-import" />,
});
