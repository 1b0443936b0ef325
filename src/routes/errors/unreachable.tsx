import { createFileRoute } from '@tanstack/react-router';
import { UnreachablePage } from '@/features/shell/ErrorPages';

// No guard here: the guard itself sends users to this page when the server info cannot load.
export const Route = createFileRoute('/errors/unreachable')({
  staticData: { name: 'unreachable' },
  component: UnreachablePage,
});
