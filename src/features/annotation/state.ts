/**
 * The annotation mode's state and the rules of spec 001 §4 "Annotation mode": pure transitions,
 * so each rule is tested on its own, and one store the panel, the image tools and the keyboard
 * share (one element page is open at a time).
 */
import { createStore, useStore } from '@/lib/store';

export type Tool = 'select' | 'type-edit' | 'deletion' | 'rectangle' | 'polygon' | 'median';

export const TOOLS: readonly Tool[] = [
  'select',
  'type-edit',
  'deletion',
  'rectangle',
  'polygon',
  'median',
];

export type BatchSwitch = 'batchCreation' | 'batchTypeEdition' | 'batchDeletion';

export interface AnnotationState {
  on: boolean;
  tool: Tool;
  batchCreation: boolean;
  batchTypeEdition: boolean;
  batchDeletion: boolean;
  /** Type slug given to shapes created in batch and to zones retyped in batch. */
  defaultType: string | null;
  /** The zone the select and median tools work on (an element id). */
  selected: string | null;
  /** Points of a polygon being drawn, in image coordinates; null when none is. */
  drawing: [number, number][] | null;
}

export const INITIAL_STATE: AnnotationState = {
  on: false,
  tool: 'select',
  batchCreation: false,
  batchTypeEdition: false,
  batchDeletion: false,
  defaultType: null,
  selected: null,
  drawing: null,
};

export const TYPE_REQUIRED = 'An element type is required to use batch creation or type edition.';

const CREATION_TOOLS = new Set<Tool>(['rectangle', 'polygon']);
const SELECTION_TOOLS = new Set<Tool>(['select', 'median']);

/** Turning the mode off resets the tool, drops an unsaved polygon and batch deletion. */
export function setMode(state: AnnotationState, on: boolean): AnnotationState {
  if (on) return { ...state, on: true };
  return { ...state, on: false, tool: 'select', drawing: null, batchDeletion: false };
}

export function setTool(state: AnnotationState, tool: Tool): AnnotationState {
  if (tool === state.tool) return state;
  const keepsCreation = CREATION_TOOLS.has(state.tool) && CREATION_TOOLS.has(tool);
  const keepsSelection = SELECTION_TOOLS.has(state.tool) && SELECTION_TOOLS.has(tool);
  return {
    ...state,
    tool,
    drawing: null,
    batchDeletion: false,
    batchTypeEdition: false,
    batchCreation: keepsCreation && state.batchCreation,
    selected: keepsSelection ? state.selected : null,
  };
}

/**
 * Turns a batch switch on or off. Batch creation and type edition need a default type: without
 * one the switch stays off and the spec's message says why.
 */
export function setBatch(
  state: AnnotationState,
  name: BatchSwitch,
  on: boolean,
): { state: AnnotationState; error: string | null } {
  if (on && name !== 'batchDeletion' && !state.defaultType) {
    return { state, error: TYPE_REQUIRED };
  }
  const next = { ...state, [name]: on };
  if (!on) next.selected = null;
  return { state: next, error: null };
}

export function setDefaultType(state: AnnotationState, type: string | null): AnnotationState {
  // Batches cannot go on without a type: clearing it turns them off.
  if (type) return { ...state, defaultType: type };
  return { ...state, defaultType: null, batchCreation: false, batchTypeEdition: false };
}

export const annotationStore = createStore<AnnotationState>(INITIAL_STATE);

export function useAnnotation(): AnnotationState {
  return useStore(annotationStore);
}

export function updateAnnotation(change: (state: AnnotationState) => AnnotationState): void {
  annotationStore.set(change);
}
