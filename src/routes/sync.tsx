import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { PendingChangesPage } from '@/features/sync/PendingChangesPage';

// Open to anyone the shell opens for: edits wait here after a session ends, too.
export const Route = createFileRoute('/sync')({
  staticData: { name: 'pending-changes' },
  beforeLoad: requireAccess({}),
  component: PendingChangesPage,
});
