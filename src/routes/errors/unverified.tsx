import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { UnverifiedPage } from '@/features/shell/ErrorPages';

export const Route = createFileRoute('/errors/unverified')({
  staticData: { name: 'unverified' },
  beforeLoad: requireAccess({}),
  component: UnverifiedPage,
});
