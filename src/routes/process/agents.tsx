import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { AgentsPage } from '@/features/agents/AgentsPage';

export const Route = createFileRoute('/process/agents')({
  staticData: { name: 'agents' },
  beforeLoad: requireAccess({ feature: 'enterprise', login: true }),
  component: AgentsPage,
});
