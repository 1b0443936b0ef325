import { useCallback } from 'react';
import { createFileRoute, redirect } from '@tanstack/react-router';
import { isUuid, requireAccess } from '@/app/guard';
import { localDb } from '@/offline/db';
import { isTempId, TEMP_PREFIX } from '@/offline/outboxEntry';
import { currentId } from '@/offline/remap';
import { storedElementQuery } from '@/offline/queries';
import { ElementPage } from '@/features/elements/ElementPage';
import { FolderChildrenList } from '@/features/navigation/FolderChildrenList';
import { validateNavigationSearch, type NavigationSearch } from '@/lib/navigationQuery';
import { ImageViewer } from '@/features/viewer/ImageViewer';
import { WorkerResultsDeletionModal } from '@/features/workers/results/WorkerResultsDeletionModal';
import { MakeOfflineDialog } from '@/features/packs/MakeOfflineDialog';
import { useCreateProcessFromElement } from '@/features/processes/create/CreateProcessButton';
import { AnnotationSession } from '@/features/annotation/AnnotationSession';
import { elementMenuDatasets } from '@/features/datasets/elementMenuDatasets';
import { elementMenuExports } from '@/features/exports/elementMenuExports';
import { useLineFlow } from '@/features/transcriptions/LineTranscriber';
import { ElementDetails, SelectionDetails } from './-ElementDetails';

/** A folder's list query (filters, order, page size, page), then the page's own params. */
export interface ElementSearch extends NavigationSearch {
  /** The child selected on the image. */
  highlight?: string;
  /** The parent the user navigates along (which neighbours Ctrl+←/→ follow). */
  from?: string;
}

/** A temporary id this device gives what it creates: `tmp-` and a UUID. */
const isLocalId = (id: string) => isTempId(id) && isUuid(id.slice(TEMP_PREFIX.length));

export const Route = createFileRoute('/element/$id')({
  staticData: { name: 'element-details' },
  // Normalised here, once: the list's request is the same from the first render on.
  validateSearch: (search: Record<string, unknown>): ElementSearch => ({
    ...validateNavigationSearch(search, { underElement: true }),
    ...(isUuid(search.highlight) && { highlight: search.highlight }),
    ...(isUuid(search.from) && { from: search.from }),
  }),
  beforeLoad: async (ctx) => {
    // An element made on this device opens under its temporary id, from what the device holds;
    // once the server gave its own id, a link still naming the temporary one leads there.
    if (isLocalId(ctx.params.id)) {
      const serverId = await currentId(localDb, ctx.params.id);
      if (serverId !== ctx.params.id) {
        throw redirect({
          to: '/element/$id',
          params: { id: serverId },
          search: ctx.search,
          replace: true,
        });
      }
      return requireAccess({})(ctx);
    }
    return requireAccess({ uuidParams: ['id'] })(ctx);
  },
  // Started here, not awaited: the page reads 'Loading…' meanwhile and reports a failure
  // with its notification rather than an error screen.
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(storedElementQuery(params.id));
  },
  component: ElementRoute,
});

function ElementRoute() {
  const { id } = Route.useParams();
  const { highlight, from, ...listSearch } = Route.useSearch();
  const navigate = Route.useNavigate();
  const followLines = useLineFlow();
  const createProcess = useCreateProcessFromElement();
  const onHighlight = useCallback(
    (next: string | null) =>
      void navigate({
        search: (previous) => ({ ...previous, highlight: next ?? undefined }),
        replace: true,
      }),
    [navigate],
  );
  return (
    <ElementPage
      id={id}
      highlight={highlight ?? null}
      from={from ?? null}
      onHighlight={onHighlight}
      renderImage={(props) => (
        <AnnotationSession
          element={props.element}
          corpus={props.corpus}
          image={props.image}
          zones={props.zones}
          selectedId={props.selectedId}
          onSelect={props.onSelect}
          renderViewer={(tool) => (
            <ImageViewer {...props} tool={tool} followSelected={followLines} />
          )}
          belowTools={
            <SelectionDetails
              page={props.element}
              corpus={props.corpus}
              selected={props.selectedId}
              onSelect={props.onSelect}
            />
          }
        />
      )}
      renderOfflineDialog={(props) => <MakeOfflineDialog {...props} />}
      renderWorkerResultsDialog={({ element, onClose }) => (
        <WorkerResultsDeletionModal
          corpusId={element.corpus.id}
          element={{ id: element.id, name: element.name }}
          onClose={onClose}
        />
      )}
      createProcess={createProcess}
      datasets={elementMenuDatasets}
      exports={elementMenuExports}
      renderDetails={(props) => (
        <ElementDetails {...props} highlight={highlight ?? null} onHighlight={onHighlight} />
      )}
      renderFolderChildren={(props) => <FolderChildrenList {...props} search={listSearch} />}
    />
  );
}
