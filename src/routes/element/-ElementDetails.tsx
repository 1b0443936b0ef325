/**
 * The element details side panel (spec 001 §2), composed here from the features of its
 * sections, in the spec's order, with line-by-line transcription of a page after the
 * transcriptions. Annotation mode takes its place on an image.
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { currentUserQuery } from '@/api/user';
import type { Corpus, Element } from '@/api/types';
import { accessOf, grantsRight } from '@/lib/rights';
import { useAnnotation } from '@/features/annotation/state';
import { ClassificationsSection } from '@/features/classifications/ClassificationsSection';
import { OrientationSection } from '@/features/elements/OrientationSection';
import { MetadataSection } from '@/features/metadata/MetadataSection';
import { TranscriptionsSection } from '@/features/transcriptions/TranscriptionsSection';
import { LineTranscriber } from '@/features/transcriptions/LineTranscriber';
import { storedZonesQuery } from '@/offline/queries';
import { WorkerRunModal } from '@/features/workers/WorkerRunModal';

/** Lines are the elements typed as such; LineTranscriber puts them in reading order. */
const isLine = (type: string) => type.includes('line');

export function ElementDetails({
  element,
  corpus,
  onHighlight,
}: {
  element: Element;
  corpus: Corpus | undefined;
  onHighlight: (id: string | null) => void;
}) {
  const annotation = useAnnotation();
  const { data: user = null } = useQuery(currentUserQuery);
  const zones = useQuery({ ...storedZonesQuery(element.id), enabled: !!element.zone });
  const lines = (zones.data ?? []).filter((zone) => isLine(zone.type) && zone.id !== element.id);
  const [workerRun, setWorkerRun] = useState<string | null>(null);
  if (annotation.on && element.zone) return null;
  const access = accessOf(corpus, user, element.rights ?? []);
  const canWrite = grantsRight(access.rights, 'write');
  const isAdmin = grantsRight(access.rights, 'admin');
  const isFolder = corpus?.types.find((type) => type.slug === element.type)?.folder ?? false;
  return (
    <aside
      aria-label="Element details"
      className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-3 lg:w-80 lg:shrink-0 lg:self-start"
    >
      {!isFolder && <OrientationSection element={element} canWrite={canWrite} />}
      <ClassificationsSection element={element} canWrite={canWrite} onWorkerRun={setWorkerRun} />
      <TranscriptionsSection
        element={element}
        canWrite={canWrite}
        isAdmin={isAdmin}
        onWorkerRun={setWorkerRun}
      />
      {canWrite && lines.length > 0 && (
        <LineTranscriber
          page={{ id: element.id, corpusId: element.corpus.id }}
          lines={lines}
          onLine={onHighlight}
        />
      )}
      <MetadataSection
        element={element}
        canWrite={canWrite}
        isAdmin={isAdmin}
        siteAdmin={user?.is_admin ?? false}
      />
      <section aria-label="Datasets" className="flex flex-col gap-1">
        <h3 className="text-sm font-semibold text-slate-900">Datasets</h3>
        <p className="text-sm text-slate-500">No datasets</p>
      </section>
      {workerRun && <WorkerRunModal id={workerRun} onClose={() => setWorkerRun(null)} />}
    </aside>
  );
}
