import { createFileRoute, redirect } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';

/** Old links to a template's details now open the process details. */
export const Route = createFileRoute('/process/$id/template-details')({
  beforeLoad: async (options) => {
    await requireAccess({ login: true, uuidParams: ['id'] })(options);
    throw redirect({ to: '/process/$id/{-$selectedRun}', params: { id: options.params.id } });
  },
});
