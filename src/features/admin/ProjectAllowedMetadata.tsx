import { useQuery } from '@tanstack/react-query';
import { corpusQuery, hasRight } from '@/api/corpora';
import { AllowedMetadataSection } from './AllowedMetadataSection';

/**
 * The allowed metadata on a project's settings page, for its admins: the metadata panel sends
 * every project admin to administer them, and most are not site admins.
 */
export function ProjectAllowedMetadata({ corpusId }: { corpusId: string }) {
  const { data: corpus } = useQuery(corpusQuery(corpusId));
  if (!corpus || !hasRight(corpus, 'admin')) return null;
  return (
    <div className="mx-auto max-w-3xl px-6 pb-6">
      <AllowedMetadataSection corpusId={corpusId} />
    </div>
  );
}
