import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { RoutePlaceholder } from '@/components/RoutePlaceholder';

export const Route = createFileRoute('/dataset/$datasetId')({
  staticData: { name: 'dataset-details' },
  beforeLoad: requireAccess({ uuidParams: ['datasetId'] }),
  component: () => <RoutePlaceholder name="dataset-details" />,
});
