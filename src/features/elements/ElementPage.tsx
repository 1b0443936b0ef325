import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { corpusQuery } from '@/api/corpora';
import { neighborsQuery } from '@/api/elements';
import { storedElementQuery } from '@/offline/queries';
import { useSelectionToggle } from '@/offline/selectionToggle';
import type { Corpus, Element, ImageInfo, Polygon } from '@/api/types';
import { useErrorNotification } from '@/components/notifications/useErrorNotification';
import { useDocumentTitle } from '@/lib/documentTitle';
import { useElementChanges } from '@/lib/elementChanges';
import { Breadcrumbs } from './Breadcrumbs';
import { ChildrenTree } from './children/ChildrenTree';
import { DisplayableChildren } from './ChildLists';
import { CopyIdButton } from './CopyIdButton';
import { DetailsSheet } from './DetailsSheet';
import { useDisplaySettings } from './displaySettings';
import {
  NavigationMenu,
  type DatasetMenuParts,
  type ExportMenuParts,
  type OfflineDialogProps,
} from './NavigationMenu';
import { zonesQuery } from './api';

/** A child drawn over the element's image. */
export interface ImageZone {
  id: string;
  name: string;
  type: string;
  polygon: Polygon;
}

/** What the page hands to the image viewer the route plugs in. */
export interface ImageSlotProps {
  element: Element;
  corpus: Corpus | undefined;
  image: ImageInfo;
  outline: Polygon | null;
  rotationAngle: number;
  mirrored: boolean;
  zones: readonly ImageZone[];
  typeColors: Readonly<Record<string, string>>;
  typeNames: Readonly<Record<string, string>>;
  selectedId: string | null;
  onSelect: (id: string | null) => void;
  isPublic: boolean;
}

export interface ElementPageProps {
  id: string;
  /** The child selected on the image (the `highlight` query). */
  highlight: string | null;
  /** The parent the user navigates along (the `from` query). */
  from: string | null;
  onHighlight: (id: string | null) => void;
  /** The image viewer lives in another feature; the route composes it in. */
  renderImage: (props: ImageSlotProps) => ReactNode;
  /** So does the "Make available offline" dialog of the header menu. */
  renderOfflineDialog?: (props: OfflineDialogProps) => ReactNode;
  /** And the worker results deletion of its Processes menu. */
  renderWorkerResultsDialog?: (props: OfflineDialogProps) => ReactNode;
  /** And the process creation of that menu, from the processes feature. */
  createProcess?: (element: Element) => void;
  /** And the datasets of its Project and Elements menus, from the datasets feature. */
  datasets?: DatasetMenuParts;
  /** And the project exports and export process of its Import/Export menu. */
  exports?: ExportMenuParts;
  /** And a folder's filtered list of children, from the navigation feature. */
  renderFolderChildren: (props: {
    elementId: string;
    corpus: Corpus;
    typeName: (slug: string) => string;
  }) => ReactNode;
  /** And the element details panel, from the features of its sections. */
  renderDetails?: (props: { element: Element; corpus: Corpus | undefined }) => ReactNode;
}

/**
 * The children tree's box: below lg, a fixed height with its own scroll, so the image under it
 * stays put while the tree loads, grows or is expanded.
 */
const TREE_BOX = 'max-lg:h-32 max-lg:overflow-y-auto lg:w-72 lg:shrink-0';
/** The height the image viewer takes (ImageViewer), kept while the page waits for its project. */
const VIEWER_ROOM = 'h-[70vh] min-h-80 max-lg:h-[50dvh]';

/** element-details: header, optional children tree, then the image, folder list or children. */
export function ElementPage(props: ElementPageProps) {
  const element = useQuery(storedElementQuery(props.id));
  useErrorNotification(element.error);
  if (element.isPending) {
    return (
      <p role="status" className="p-6 text-slate-600">
        Loading…
      </p>
    );
  }
  if (element.isError) {
    return (
      <p role="alert" className="p-6 text-red-700">
        The element could not be loaded: {element.error.message}
      </p>
    );
  }
  // Per element: a new element is a new tree, new lists and a new viewer.
  return <ElementView key={element.data.id} {...props} element={element.data} />;
}

function ElementView({
  element,
  highlight,
  from,
  onHighlight,
  renderImage,
  renderOfflineDialog,
  renderWorkerResultsDialog,
  createProcess,
  datasets,
  exports,
  renderDetails,
  renderFolderChildren,
}: ElementPageProps & { element: Element }) {
  const corpus = useQuery(corpusQuery(element.corpus.id));
  const neighbours = useQuery(neighborsQuery(element.id));
  useErrorNotification(neighbours.error);
  const display = useDisplaySettings();

  const types = corpus.data?.types;
  const type = types?.find((candidate) => candidate.slug === element.type);
  const typeName = useCallback(
    (slug: string) => types?.find((candidate) => candidate.slug === slug)?.display_name ?? slug,
    [types],
  );
  const isFolder = type?.folder ?? false;
  // Which tree setting applies is known once the project's types are: guessed before, a folder
  // briefly mounted the annotations tree, whose children request then went to waste.
  const showTree = !corpus.isPending && (isFolder ? display.folderTree : display.annotationsTree);
  const corpusName = corpus.data?.name ?? element.corpus.name ?? 'Project';
  useDocumentTitle([element.name, corpus.data?.name ?? element.corpus.name]);
  // After a deletion the page goes up along the path the user came by, else the first one.
  const parentId =
    from ?? neighbours.data?.find((paths) => paths.path.length)?.path.at(-1)?.id ?? null;
  // The tree pages on its own, outside the query cache: a change starts it over.
  const [treeRevision, setTreeRevision] = useState(0);
  // Zones changed on the image (annotation tools) start the tree over too.
  const elementChanges = useElementChanges();
  const onChanged = useCallback(() => setTreeRevision((revision) => revision + 1), []);

  return (
    // Below lg the details are a sheet over the bottom of the screen: room to scroll past it.
    <div className="flex flex-col gap-4 p-4 max-lg:pb-16 sm:p-6">
      <header className="flex flex-col gap-2 border-b border-slate-200 pb-3">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="flex min-w-0 flex-wrap items-center gap-2">
            <h1 className="text-2xl font-semibold break-words text-brand-900">{element.name}</h1>
            <span className="rounded bg-slate-100 px-2 py-0.5 text-sm text-slate-700">
              {typeName(element.type)}
            </span>
            <CopyIdButton id={element.id} />
            <SelectionButton element={element} corpusName={corpus.data?.name ?? null} />
          </div>
          <NavigationMenu
            element={element}
            corpus={corpus.data}
            isFolder={isFolder}
            parentId={parentId}
            onChanged={onChanged}
            renderOfflineDialog={renderOfflineDialog}
            renderWorkerResultsDialog={renderWorkerResultsDialog}
            createProcess={createProcess}
            datasets={datasets}
            exports={exports}
          />
        </div>
        <Breadcrumbs
          element={element}
          corpusName={corpusName}
          neighbours={neighbours.data ?? []}
          from={from}
        />
      </header>
      <div className="flex flex-col gap-4 lg:flex-row">
        {showTree ? (
          <aside className={TREE_BOX}>
            <ChildrenTree
              key={`${treeRevision}:${elementChanges}`}
              root={element}
              typeName={typeName}
              highlight={highlight}
            />
          </aside>
        ) : (
          // Until the project's types say whether the tree shows, its room is kept where it
          // most likely will: the image below does not jump down when it comes.
          corpus.isPending &&
          element.zone &&
          display.annotationsTree && <div aria-hidden="true" className={TREE_BOX} />
        )}
        <div className="min-w-0 flex-1">
          {corpus.isPending ? (
            // As tall as the image viewer that replaces it, so nothing below shifts into view.
            <p role="status" className={`text-slate-600 ${element.zone ? VIEWER_ROOM : ''}`}>
              Loading…
            </p>
          ) : element.zone ? (
            <ElementImage
              element={element}
              corpus={corpus.data}
              highlight={highlight}
              onHighlight={onHighlight}
              renderImage={renderImage}
            />
          ) : isFolder && corpus.data ? (
            renderFolderChildren({ elementId: element.id, corpus: corpus.data, typeName })
          ) : (
            <DisplayableChildren elementId={element.id} typeName={typeName} />
          )}
        </div>
        {/* Sized by the panel itself: when annotation mode takes its place, no empty column. */}
        {renderDetails && !corpus.isPending && (
          <DetailsSheet>{renderDetails({ element, corpus: corpus.data })}</DetailsSheet>
        )}
      </div>
    </div>
  );
}

function ElementImage({
  element,
  corpus,
  highlight,
  onHighlight,
  renderImage,
}: {
  element: Element;
  corpus: Corpus | undefined;
  highlight: string | null;
  onHighlight: (id: string | null) => void;
  renderImage: (props: ImageSlotProps) => ReactNode;
}) {
  const zone = element.zone!;
  const children = useQuery(zonesQuery(element.id));
  useErrorNotification(children.error);

  const zones = useMemo<ImageZone[]>(
    () =>
      (children.data ?? []).flatMap((child) =>
        child.zone && child.zone.image.id === zone.image.id && child.id !== element.id
          ? [{ id: child.id, name: child.name, type: child.type, polygon: child.zone.polygon }]
          : [],
      ),
    [children.data, zone.image.id, element.id],
  );
  const typeColors = useMemo(
    () => Object.fromEntries((corpus?.types ?? []).map((type) => [type.slug, type.color])),
    [corpus?.types],
  );
  const typeNames = useMemo(
    () => Object.fromEntries((corpus?.types ?? []).map((type) => [type.slug, type.display_name])),
    [corpus?.types],
  );

  return renderImage({
    element,
    corpus,
    image: zone.image,
    outline: zone.polygon,
    rotationAngle: element.rotation_angle ?? 0,
    mirrored: element.mirrored ?? false,
    zones,
    typeColors,
    typeNames,
    selectedId: highlight,
    onSelect: onHighlight,
    isPublic: corpus?.public ?? element.corpus.public ?? false,
  });
}

/** Selects the element shown, as its card's toggle would (spec 001 §4 "Selection"). */
function SelectionButton({ element, corpusName }: { element: Element; corpusName: string | null }) {
  const toggle = useSelectionToggle()(element, { id: element.corpus.id, name: corpusName });
  if (!toggle) return null;
  const reason = toggle.disabledReason;
  return (
    <button
      type="button"
      aria-label={`Select ${element.name}`}
      aria-pressed={toggle.selected}
      aria-disabled={reason ? true : undefined}
      title={reason ?? undefined}
      onClick={() => !reason && toggle.onToggle()}
      className={`rounded border px-2 py-0.5 text-sm ${
        toggle.selected
          ? 'border-brand-600 bg-brand-600 text-white hover:bg-brand-700'
          : 'border-slate-300 text-slate-700 hover:bg-slate-50'
      } aria-disabled:cursor-not-allowed aria-disabled:opacity-50`}
    >
      {toggle.selected ? 'Selected' : 'Select'}
    </button>
  );
}
