import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { SetBadge, setIndex } from '@/features/datasets/SetBadge';
import { ProcessDatasetsPage } from '@/features/processes/datasets/ProcessDatasetsPage';
import { redirectUnlessChoosingSets } from '@/features/processes/datasets/loaders';

export const Route = createFileRoute('/process/$id/datasets')({
  staticData: { name: 'process-datasets' },
  beforeLoad: (ctx) => requireAccess({ login: true, uuidParams: ['id'] })(ctx),
  loader: ({ context, params }) => redirectUnlessChoosingSets(context.queryClient, params.id),
  component: ProcessDatasetsRoute,
});

function ProcessDatasetsRoute() {
  const { id } = Route.useParams();
  return (
    <ProcessDatasetsPage
      processId={id}
      renderSetName={(dataset, name) => <SetBadge name={name} index={setIndex(dataset, name)} />}
    />
  );
}
