/**
 * The element details side panel (spec 001 §2), composed here from the features of its
 * sections, in the spec's order, with line-by-line transcription of a page after the
 * transcriptions. Annotation mode takes its place on an image.
 *
 * A zone selected on the image (or highlighted by the address) has its own details here, to
 * read and correct without leaving the page, under its name and type and a way back to the
 * page's: the Back button, Esc, or a click on the image beside every zone. While the page is
 * transcribed line by line, the selection is the line being typed and the panel stays the
 * page's, where the flow is.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { currentUserQuery } from '@/api/user';
import type { Corpus, Element } from '@/api/types';
import { useErrorNotification } from '@/components/notifications/useErrorNotification';
import { ui } from '@/components/styles';
import { isTyping } from '@/lib/keyboard';
import { accessOf, grantsRight } from '@/lib/rights';
import { annotationStore, useAnnotation } from '@/features/annotation/state';
import { ClassificationsSection } from '@/features/classifications/ClassificationsSection';
import { ElementDatasetsSection } from '@/features/datasets/element/ElementDatasetsSection';
import { OrientationSection } from '@/features/elements/OrientationSection';
import { MetadataSection } from '@/features/metadata/MetadataSection';
import { TranscriptionsSection } from '@/features/transcriptions/TranscriptionsSection';
import { LineTranscriber, useLineFlow } from '@/features/transcriptions/LineTranscriber';
import { storedElementQuery, storedZonesQuery } from '@/offline/queries';
import { WorkerRunModal } from '@/features/workers/WorkerRunModal';

/** Lines are the elements typed as such; LineTranscriber puts them in reading order. */
const isLine = (type: string) => type.includes('line');

const panelClass =
  'flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-3 lg:w-80 lg:shrink-0 lg:self-start';
/** Under the annotation tools, the panel takes their width. */
const underToolsClass = 'flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-3';

export interface ElementDetailsProps {
  element: Element;
  corpus: Corpus | undefined;
  /** The element selected on the page (the `highlight` query). */
  highlight: string | null;
  onHighlight: (id: string | null) => void;
}

export function ElementDetails({ element, corpus, highlight, onHighlight }: ElementDetailsProps) {
  const annotation = useAnnotation();
  const following = useLineFlow();
  // In annotation mode the tools' panel has the selected zone's details (SelectionDetails).
  if (annotation.on && element.zone) return null;
  const selected = highlight && highlight !== element.id && !following ? highlight : null;
  if (selected) {
    return (
      <SelectedElementDetails
        key={selected}
        id={selected}
        corpus={corpus}
        onBack={() => onHighlight(null)}
      />
    );
  }
  return <PageDetails element={element} corpus={corpus} onHighlight={onHighlight} />;
}

/**
 * The selected zone's details under the annotation tools, so that selecting a zone there does
 * not add a column and narrow the image being drawn on.
 */
export function SelectionDetails({
  page,
  corpus,
  selected,
  onSelect,
}: {
  page: Element;
  corpus: Corpus | undefined;
  selected: string | null;
  onSelect: (id: string | null) => void;
}) {
  const following = useLineFlow();
  if (!selected || selected === page.id || following) return null;
  return (
    <SelectedElementDetails
      key={selected}
      id={selected}
      corpus={corpus}
      onBack={() => onSelect(null)}
      underTools
    />
  );
}

function PageDetails({
  element,
  corpus,
  onHighlight,
}: {
  element: Element;
  corpus: Corpus | undefined;
  onHighlight: (id: string | null) => void;
}) {
  const zones = useQuery({ ...storedZonesQuery(element.id), enabled: !!element.zone });
  const lines = (zones.data ?? []).filter((zone) => isLine(zone.type) && zone.id !== element.id);
  return (
    <aside aria-label="Element details" className={panelClass}>
      {/* The sections' titles are h3s: the level between them and the page's h1. */}
      <h2 className="sr-only">Element details</h2>
      <DetailsSections
        element={element}
        corpus={corpus}
        afterTranscriptions={(canWrite) =>
          canWrite &&
          lines.length > 0 && (
            <LineTranscriber
              page={{ id: element.id, corpusId: element.corpus.id }}
              lines={lines}
              onLine={onHighlight}
            />
          )
        }
      />
    </aside>
  );
}

/** A zone's (or any selected element's) details, under its name and type, with the way back. */
function SelectedElementDetails({
  id,
  corpus,
  onBack,
  underTools = false,
}: {
  id: string;
  corpus: Corpus | undefined;
  onBack: () => void;
  underTools?: boolean;
}) {
  const selected = useQuery(storedElementQuery(id));
  useErrorNotification(selected.error);
  useBackOnEscape(onBack);
  const typeName = (slug: string) =>
    corpus?.types.find((type) => type.slug === slug)?.display_name ?? slug;
  return (
    <aside aria-label="Element details" className={underTools ? underToolsClass : panelClass}>
      <header className="flex items-start justify-between gap-2 border-b border-slate-200 pb-2">
        {selected.data ? (
          <div className="min-w-0">
            <p className="text-xs font-medium tracking-wide text-slate-500 uppercase">Selected</p>
            <h2 className="font-semibold break-words text-slate-900">{selected.data.name}</h2>
            <p className="text-sm text-slate-600">{typeName(selected.data.type)}</p>
          </div>
        ) : (
          <p role={selected.isError ? 'alert' : 'status'} className="text-sm text-slate-600">
            {selected.isError
              ? `The element could not be loaded: ${selected.error.message}`
              : 'Loading…'}
          </p>
        )}
        <button
          type="button"
          className={`${ui.secondaryButton} shrink-0`}
          title="Back to the page's details (Esc)"
          onClick={onBack}
        >
          Back to page
        </button>
      </header>
      {selected.data && <DetailsSections element={selected.data} corpus={corpus} />}
    </aside>
  );
}

/**
 * Esc clears the selection outside annotation mode (annotation mode's own keys do it there,
 * after cancelling a shape being drawn); not while typing, nor under a modal, which has it.
 */
function useBackOnEscape(onBack: () => void): void {
  const latest = useRef(onBack);
  useEffect(() => {
    latest.current = onBack;
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented || isTyping(event.target)) return;
      if (annotationStore.get().on || document.querySelector('[role="dialog"]')) return;
      latest.current();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}

/** The panel's sections for one element, in the spec's order. */
function DetailsSections({
  element,
  corpus,
  afterTranscriptions,
}: {
  element: Element;
  corpus: Corpus | undefined;
  afterTranscriptions?: (canWrite: boolean) => ReactNode;
}) {
  const { data: user = null } = useQuery(currentUserQuery);
  const [workerRun, setWorkerRun] = useState<string | null>(null);
  const access = accessOf(corpus, user, element.rights ?? []);
  const canWrite = grantsRight(access.rights, 'write');
  const isAdmin = grantsRight(access.rights, 'admin');
  const isFolder = corpus?.types.find((type) => type.slug === element.type)?.folder ?? false;
  return (
    <>
      {!isFolder && <OrientationSection element={element} canWrite={canWrite} />}
      <ClassificationsSection element={element} canWrite={canWrite} onWorkerRun={setWorkerRun} />
      <TranscriptionsSection
        element={element}
        canWrite={canWrite}
        isAdmin={isAdmin}
        onWorkerRun={setWorkerRun}
      />
      {afterTranscriptions?.(canWrite)}
      <MetadataSection
        element={element}
        canWrite={canWrite}
        isAdmin={isAdmin}
        siteAdmin={user?.is_admin ?? false}
      />
      <ElementDatasetsSection element={element} canWrite={canWrite} isAdmin={isAdmin} />
      {workerRun && <WorkerRunModal id={workerRun} onClose={() => setWorkerRun(null)} />}
    </>
  );
}
