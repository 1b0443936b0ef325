import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { ImageElementsPage } from '@/features/viewer/ImageElementsPage';

export interface ImageElementsSearch {
  page?: number;
}

export const Route = createFileRoute('/image/$imageId')({
  staticData: { name: 'image-elements' },
  validateSearch: (search: Record<string, unknown>): ImageElementsSearch => {
    const page = Number(search.page);
    return Number.isInteger(page) && page > 1 ? { page } : {};
  },
  beforeLoad: (ctx) => requireAccess({ login: true, verified: true, uuidParams: ['imageId'] })(ctx),
  component: ImageElementsRoute,
});

function ImageElementsRoute() {
  const { imageId } = Route.useParams();
  const { page = 1 } = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <ImageElementsPage
      imageId={imageId}
      page={page}
      onPageChange={(next) => void navigate({ search: next > 1 ? { page: next } : {} })}
    />
  );
}
