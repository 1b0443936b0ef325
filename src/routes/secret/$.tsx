import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { SecretPage } from '@/features/secrets/SecretPage';

// The name's segments are the rest of the path (`/secret/ocr/service/key`), spec 000 §2.
export const Route = createFileRoute('/secret/$')({
  staticData: { name: 'secret-details' },
  beforeLoad: requireAccess({ feature: 'enterprise', login: true }),
  component: SecretRoute,
});

function SecretRoute() {
  const { _splat } = Route.useParams();
  return <SecretPage name={String(_splat ?? '').replace(/\/+$/, '')} />;
}
