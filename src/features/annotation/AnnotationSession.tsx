/**
 * Annotation mode on an element page: the toggle, the tools on the image and the panel beside
 * it, the forms the tools open, and the keyboard. Every change goes through the outbox, so it
 * shows at once and reaches the server when the network allows.
 */
import {
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
  type RefObject,
} from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { currentUserQuery } from '@/api/user';
import type { Corpus, Element, ImageInfo, Polygon } from '@/api/types';
import { errorMessage } from '@/api/errors';
import { notify } from '@/components/notifications/store';
import { ui } from '@/components/styles';
import { announceElementChange } from '@/lib/elementChanges';
import { isTyping } from '@/lib/keyboard';
import type { PointerTool } from '@/lib/pointerTool';
import type { Point } from '@/lib/polygon';
import { accessOf, blockedReason, ELEMENT_DELETE, RIGHT_MESSAGES } from '@/lib/rights';
import { entityWrites } from '@/offline/entityWrites';
import { storedClassesQuery, storedZonesQuery } from '@/offline/queries';
import { savedNotice } from '@/offline/runtime';
import { CreationDialog, DeleteZoneDialog, TypeDialog } from './AnnotationDialogs';
import { AnnotationPanel } from './AnnotationPanel';
import { isArrowKey, nudgePolygon, preparePolygon, samePolygon } from './geometry';
import { annotationHistory } from './history';
import { ImageTools, type ToolZone } from './imageTools';
import { TOOL_OF_KEY } from './shortcuts';
import {
  annotationStore,
  setBatch,
  setDefaultType,
  setMode,
  setTool,
  updateAnnotation,
  useAnnotation,
  type BatchSwitch,
  type Tool,
} from './state';
import { createZone, deleteZone, reshapeZone, retypeZone } from './zoneEdits';

/** Spec 001 §8: what creating and reshaping an element say once done. */
export const ELEMENT_CREATED = 'Element created.';
export const POLYGON_UPDATED = 'Element polygon updated.';
export const TYPE_RIGHTS = "You don't have the necessary rights to edit this element's type.";
export const DELETE_RIGHTS = "You don't have the necessary rights to delete this element.";
/** The drawn shape waiting for its creation form: a temporary 'created-polygon' element. */
export const CREATED_POLYGON = 'created-polygon';

export interface AnnotationZone {
  id: string;
  name: string;
  type: string;
  polygon: Polygon;
}

export interface AnnotationSessionProps {
  element: Element;
  corpus: Corpus | undefined;
  image: ImageInfo;
  zones: readonly AnnotationZone[];
  selectedId: string | null;
  onSelect: (id: string | null) => void;
  /** The image viewer, given the tools while annotation mode is on. */
  renderViewer: (tool: PointerTool | null) => ReactNode;
  /** Shown under the tools (the selected zone's details): beside the image, not resizing it. */
  belowTools?: ReactNode;
}

type Dialog =
  | { kind: 'create'; polygon: Point[] }
  | { kind: 'type'; zone: AnnotationZone }
  | { kind: 'delete'; zone: AnnotationZone };

const fail = (error: unknown) => notify({ type: 'error', text: errorMessage(error) });

export function AnnotationSession({
  element,
  corpus,
  image,
  zones,
  selectedId,
  onSelect,
  renderViewer,
  belowTools,
}: AnnotationSessionProps) {
  const state = useAnnotation();
  const queryClient = useQueryClient();
  const { data: user = null } = useQuery(currentUserQuery);
  const access = accessOf(corpus, user, element.rights ?? []);
  const writeBlocked = blockedReason({ right: 'write' }, access);
  const typeBlocked = blockedReason({ right: 'write', verified: true }, access);
  const deleteBlocked = blockedReason(ELEMENT_DELETE, access);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const imageSize = useMemo(
    () => ({ width: image.width, height: image.height }),
    [image.width, image.height],
  );
  const types = useMemo(() => (corpus?.types ?? []).filter((type) => !type.folder), [corpus]);
  const classes = useQuery({
    ...storedClassesQuery(element.corpus.id),
    enabled: state.on && !writeBlocked,
  });

  const refresh = useCallback(
    () => queryClient.invalidateQueries({ queryKey: storedZonesQuery(element.id).queryKey }),
    [queryClient, element.id],
  );

  // The tools call back into the latest props and state, not the ones of their first render.
  const latest = useRef({ zones, types, selectedId, onSelect, typeBlocked, deleteBlocked });
  useEffect(() => {
    latest.current = { zones, types, selectedId, onSelect, typeBlocked, deleteBlocked };
  });

  const select = useCallback((id: string | null) => {
    updateAnnotation((current) => ({ ...current, selected: id }));
    latest.current.onSelect(id);
  }, []);

  const zoneOf = (id: string) => latest.current.zones.find((zone) => zone.id === id);

  /**
   * The new shape in the zones at once, before the list is read back: the next edit (an arrow
   * key held down, a drag right after) starts from it, not from the shape before.
   */
  const showShape = (id: string, polygon: Polygon) => {
    latest.current.zones = latest.current.zones.map((zone) =>
      zone.id === id ? { ...zone, polygon } : zone,
    );
    // A read on its way started before this edit: its answer must not put the old shape back.
    const { queryKey } = storedZonesQuery(element.id);
    void queryClient.cancelQueries({ queryKey });
    queryClient.setQueryData(queryKey, (items) =>
      items?.map((item) =>
        item.id === id && item.zone ? { ...item, zone: { ...item.zone, polygon } } : item,
      ),
    );
  };

  const edit = useCallback(
    async (change: () => Promise<void>, reshapeOnly = false) => {
      try {
        await change();
      } finally {
        await refresh();
        // The children tree lists names and types: a new shape alone changes nothing there.
        if (!reshapeOnly) announceElementChange();
      }
    },
    [refresh],
  );

  const newZone = useCallback(
    (polygon: Point[], type: string, name: string) => ({
      corpus: element.corpus.id,
      parent: element.id,
      image,
      type,
      name,
      polygon,
    }),
    [element.corpus.id, element.id, image],
  );

  const [tools] = useState(
    () =>
      new ImageTools({
        select: (id) => select(id),
        create: (points) => actions.current.create(points),
        reshape: (id, points) => actions.current.reshape(id, points),
        retype: (id) => actions.current.retype(id),
        remove: (id) => actions.current.remove(id),
      }),
  );
  useEffect(() => () => tools.dispose(), [tools]);

  const actions = useRef({
    create: (_points: Point[]) => {},
    reshape: (_id: string, _points: Point[], _quiet?: boolean) => {},
    retype: (_id: string) => {},
    remove: (_id: string) => {},
  });
  actions.current = {
    create(points) {
      const prepared = preparePolygon(points, imageSize);
      if (!prepared.ok) {
        notify({ type: 'error', text: prepared.message });
        select(null);
        return;
      }
      const current = annotationStore.get();
      if (current.batchCreation && current.defaultType) {
        const type = current.defaultType;
        const sameType = latest.current.zones.filter((zone) => zone.type === type).length;
        void edit(async () => {
          await createZone(newZone(prepared.polygon, type, String(sameType + 1)));
          notify({ type: 'success', text: savedNotice(ELEMENT_CREATED) });
        }).catch(fail);
        return;
      }
      tools.showPending(CREATED_POLYGON, prepared.polygon);
      setDialog({ kind: 'create', polygon: prepared.polygon });
    },
    reshape(id, points, quiet = false) {
      const zone = zoneOf(id);
      if (!zone) return;
      const prepared = preparePolygon(points, imageSize);
      if (!prepared.ok) {
        notify({ type: 'error', text: prepared.message });
        tools.showPending(id, null);
        select(null);
        return;
      }
      if (samePolygon(prepared.polygon, zone.polygon)) {
        tools.showPending(id, null);
        return;
      }
      tools.showPending(id, prepared.polygon);
      const previous = zone.polygon.map(([x, y]): Point => [x, y]);
      showShape(id, prepared.polygon as Polygon);
      void edit(async () => {
        await reshapeZone(id, prepared.polygon, previous);
        // Arrow keys nudge a pixel at a time: one notice per press would bury the page.
        if (!quiet) notify({ type: 'success', text: savedNotice(POLYGON_UPDATED) });
      }, true).catch((error: unknown) => {
        tools.showPending(id, null);
        fail(error);
      });
    },
    retype(id) {
      const zone = zoneOf(id);
      if (!zone) return;
      if (latest.current.typeBlocked) {
        notify({ type: 'error', text: TYPE_RIGHTS });
        return;
      }
      const current = annotationStore.get();
      if (current.batchTypeEdition && current.defaultType) {
        if (current.defaultType === zone.type) return;
        const type = current.defaultType;
        void edit(() => retypeZone(id, type, zone.type)).catch(fail);
        return;
      }
      setDialog({ kind: 'type', zone });
    },
    remove(id) {
      const zone = zoneOf(id);
      if (!zone) return;
      if (latest.current.deleteBlocked) {
        notify({ type: 'error', text: DELETE_RIGHTS });
        return;
      }
      if (annotationStore.get().batchDeletion) {
        void removeZone(zone).catch(fail);
        return;
      }
      setDialog({ kind: 'delete', zone });
    },
  };

  const removeZone = async (zone: AnnotationZone) => {
    if (annotationStore.get().selected === zone.id) select(null);
    const polygon = zone.polygon.map(([x, y]): Point => [x, y]);
    await edit(() => deleteZone(zone.id, newZone(polygon, zone.type, zone.name)));
  };

  // The tools see the zones the page shows, in the viewer's order (zone indexes match).
  useEffect(() => {
    tools.setZones(zones as readonly ToolZone[], imageSize);
  }, [tools, zones, imageSize]);

  // Without write rights there is no annotation mode.
  useEffect(() => {
    if (writeBlocked && annotationStore.get().on) updateAnnotation((s) => setMode(s, false));
  }, [writeBlocked]);

  // A new page: what was drawn or selected on the previous one does not apply here.
  useEffect(() => {
    updateAnnotation((s) => ({ ...s, drawing: null, selected: null }));
    annotationHistory.clear();
  }, [element.id]);

  // The page's highlight is the selection: a zone picked on the image or in the address.
  useEffect(() => {
    if (annotationStore.get().on && annotationStore.get().selected !== selectedId) {
      updateAnnotation((s) => ({ ...s, selected: selectedId }));
    }
  }, [selectedId]);

  const chooseTool = useCallback(
    (tool: Tool) => {
      const before = annotationStore.get();
      updateAnnotation((s) => setTool(s, tool));
      if (before.selected && !annotationStore.get().selected) latest.current.onSelect(null);
      tools.cancel();
    },
    [tools],
  );

  const chooseBatch = (name: BatchSwitch, on: boolean) => {
    const result = setBatch(annotationStore.get(), name, on);
    if (result.error) {
      notify({ type: 'error', text: result.error });
      return;
    }
    annotationStore.set(result.state);
    if (!on) latest.current.onSelect(null);
  };

  const undo = useCallback(() => {
    void annotationHistory.undo().then(refresh).then(announceElementChange).catch(fail);
  }, [refresh]);
  const redo = useCallback(() => {
    void annotationHistory.redo().then(refresh).then(announceElementChange).catch(fail);
  }, [refresh]);

  const viewerBox = useRef<HTMLDivElement>(null);
  useAnnotationKeys(viewerBox, {
    onEscape: () => {
      if (tools.cancel()) return;
      select(null);
    },
    onTool: (tool) => {
      if (tool === 'type-edit' && typeBlocked) return;
      if (tool === 'deletion' && deleteBlocked) return;
      chooseTool(tool);
    },
    onDelete: () => {
      const id = annotationStore.get().selected;
      if (id) actions.current.remove(id);
    },
    onArrow: (key, shift) => {
      const id = annotationStore.get().selected;
      const zone = id ? zoneOf(id) : undefined;
      if (!zone || annotationStore.get().tool !== 'select') return false;
      const moved = nudgePolygon(
        zone.polygon,
        key,
        shift,
        imageSize,
        tools.lastImageToScreen ?? undefined,
      );
      actions.current.reshape(zone.id, moved, true);
      return true;
    },
    onUndo: undo,
    onRedo: redo,
  });

  const toggle = () => {
    const on = !state.on;
    updateAnnotation((s) => setMode(s, on));
    if (on) updateAnnotation((s) => ({ ...s, selected: selectedId }));
    else tools.cancel();
  };

  const blockedTools: Partial<Record<Tool, string>> = {};
  if (typeBlocked) blockedTools['type-edit'] = typeBlocked;
  if (deleteBlocked) blockedTools.deletion = deleteBlocked;

  const closeDialog = () => {
    if (dialog?.kind === 'create') tools.showPending(CREATED_POLYGON, null);
    setDialog(null);
  };

  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2">
        <button
          type="button"
          aria-pressed={state.on}
          aria-disabled={!!writeBlocked}
          title={writeBlocked ?? (user ? undefined : RIGHT_MESSAGES.contributor)}
          className={state.on ? ui.primaryButton : ui.secondaryButton}
          onClick={() => !writeBlocked && toggle()}
        >
          Annotation mode
        </button>
      </div>
      <div className="flex flex-col gap-4 xl:flex-row">
        <div ref={viewerBox} className="min-w-0 flex-1">
          {renderViewer(state.on ? tools : null)}
        </div>
        {state.on && (
          // Above the image until it fits beside it: the tools stay on screen with the image.
          <aside className="max-xl:order-first xl:w-72 xl:shrink-0">
            <AnnotationPanel
              types={types}
              blockedTools={blockedTools}
              onTool={chooseTool}
              onBatch={chooseBatch}
              onDefaultType={(type) => updateAnnotation((s) => setDefaultType(s, type))}
              onCancelDrawing={() => tools.cancel()}
              onUndo={undo}
              onRedo={redo}
            />
            {/* Empty (nothing selected), it takes no room. */}
            <div className="mt-3 empty:hidden max-xl:max-h-72 max-xl:overflow-y-auto">
              {belowTools}
            </div>
          </aside>
        )}
      </div>
      {dialog?.kind === 'create' && (
        <CreationDialog
          types={types}
          classes={classes.data ?? []}
          defaultType={state.defaultType}
          onClose={closeDialog}
          onCreate={(name, type, mlClass) =>
            edit(async () => {
              const id = await createZone(newZone(dialog.polygon, type, name));
              notify({ type: 'success', text: savedNotice(ELEMENT_CREATED) });
              if (mlClass) {
                await entityWrites.classify({ id, corpusId: element.corpus.id }, mlClass);
              }
            })
          }
        />
      )}
      {dialog?.kind === 'type' && (
        <TypeDialog
          name={dialog.zone.name}
          types={types}
          current={dialog.zone.type}
          onClose={closeDialog}
          onSave={(type) => edit(() => retypeZone(dialog.zone.id, type, dialog.zone.type))}
        />
      )}
      {dialog?.kind === 'delete' && (
        <DeleteZoneDialog
          name={dialog.zone.name}
          onClose={closeDialog}
          onDelete={() =>
            removeZone(dialog.zone).catch((error: unknown) => {
              fail(error);
            })
          }
        />
      )}
    </div>
  );
}

interface AnnotationKeys {
  onEscape: () => void;
  onTool: (tool: Tool) => void;
  onDelete: () => void;
  /** True when the arrow moved something (the page then does not scroll). */
  onArrow: (key: 'ArrowLeft' | 'ArrowRight' | 'ArrowUp' | 'ArrowDown', shift: boolean) => boolean;
  onUndo: () => void;
  onRedo: () => void;
}

/**
 * The keyboard while annotation mode is on; keys typed in a field stay text. Keys pressed on the
 * image (focused once clicked) are read before the viewer's own: OpenSeadragon pans on the
 * arrows and w/a/s/d and rotates on r, which would take the tools' keys and the nudges.
 */
function useAnnotationKeys(
  viewerBox: RefObject<HTMLElement | null>,
  handlers: AnnotationKeys,
): void {
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (!annotationStore.get().on || event.defaultPrevented || isTyping(event.target)) return;
      // A modal has the keyboard: Enter and Esc belong to it.
      if (document.querySelector('[role="dialog"]')) return;
      const on = latest.current;
      const ctrl = event.ctrlKey || event.metaKey;
      const key = event.key;
      if (ctrl && (key === 'z' || key === 'Z')) {
        event.preventDefault();
        if (event.shiftKey) on.onRedo();
        else on.onUndo();
        return;
      }
      if (ctrl && (key === 'y' || key === 'Y')) {
        event.preventDefault();
        on.onRedo();
        return;
      }
      if (ctrl || event.altKey) return;
      if (key === 'Escape') {
        on.onEscape();
      } else if (key === 'Delete' || key === 'Backspace') {
        event.preventDefault();
        on.onDelete();
      } else if (isArrowKey(key)) {
        if (on.onArrow(key, event.shiftKey)) event.preventDefault();
      } else if (TOOL_OF_KEY[key]) {
        event.preventDefault();
        on.onTool(TOOL_OF_KEY[key]);
      }
    }
    const onImage = (event: KeyboardEvent) =>
      event.target instanceof Node && !!viewerBox.current?.contains(event.target);
    const onPageKey = (event: KeyboardEvent) => {
      if (!onImage(event)) onKeyDown(event);
    };
    const onImageKey = (event: KeyboardEvent) => {
      if (onImage(event)) onKeyDown(event);
    };
    const box = viewerBox.current;
    window.addEventListener('keydown', onPageKey);
    box?.addEventListener('keydown', onImageKey, true);
    return () => {
      window.removeEventListener('keydown', onPageKey);
      box?.removeEventListener('keydown', onImageKey, true);
    };
  }, [viewerBox]);
}
