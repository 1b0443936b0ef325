import { describe, expect, it } from 'vitest';
import {
  INITIAL_STATE,
  setBatch,
  setDefaultType,
  setMode,
  setTool,
  TYPE_REQUIRED,
  type AnnotationState,
} from '@/features/annotation/state';

const on = (patch: Partial<AnnotationState> = {}): AnnotationState => ({
  ...INITIAL_STATE,
  on: true,
  ...patch,
});

describe('annotation mode (spec 001 §4)', () => {
  it('is off by default, with the select tool', () => {
    expect(INITIAL_STATE).toMatchObject({ on: false, tool: 'select', drawing: null });
  });

  it('turning it off resets the tool, drops the polygon being drawn and batch deletion', () => {
    const drawing: [number, number][] = [
      [1, 1],
      [5, 1],
    ];
    const off = setMode(
      on({ tool: 'polygon', drawing, batchDeletion: true, batchCreation: true, defaultType: 'l' }),
      false,
    );
    expect(off).toMatchObject({ on: false, tool: 'select', drawing: null, batchDeletion: false });
    // What the spec does not name stays as the user set it.
    expect(off).toMatchObject({ batchCreation: true, defaultType: 'l' });
  });

  it('changing tool turns off batch deletion and batch type edition', () => {
    const next = setTool(
      on({ tool: 'deletion', batchDeletion: true, batchTypeEdition: true }),
      'select',
    );
    expect(next).toMatchObject({ tool: 'select', batchDeletion: false, batchTypeEdition: false });
  });

  it('keeps batch creation only between polygon and rectangle', () => {
    const drawingRectangles = on({ tool: 'rectangle', batchCreation: true, defaultType: 'line' });
    expect(setTool(drawingRectangles, 'polygon').batchCreation).toBe(true);
    expect(setTool(setTool(drawingRectangles, 'polygon'), 'rectangle').batchCreation).toBe(true);
    expect(setTool(drawingRectangles, 'select').batchCreation).toBe(false);
    expect(setTool(drawingRectangles, 'median').batchCreation).toBe(false);
  });

  it('keeps the selection only between the select and median tools', () => {
    const selected = on({ tool: 'select', selected: 'zone-1' });
    expect(setTool(selected, 'median').selected).toBe('zone-1');
    expect(setTool(setTool(selected, 'median'), 'select').selected).toBe('zone-1');
    for (const tool of ['type-edit', 'deletion', 'rectangle', 'polygon'] as const) {
      expect(setTool(selected, tool).selected).toBeNull();
    }
    expect(setTool(on({ tool: 'type-edit', selected: 'zone-1' }), 'select').selected).toBeNull();
  });

  it('drops a polygon being drawn when the tool changes', () => {
    const drawing = on({ tool: 'polygon', drawing: [[3, 4]] });
    expect(setTool(drawing, 'rectangle').drawing).toBeNull();
  });

  it('choosing the tool in use changes nothing', () => {
    const state = on({ tool: 'deletion', batchDeletion: true, selected: null });
    expect(setTool(state, 'deletion')).toBe(state);
  });

  it('needs a default type for batch creation and batch type edition, not for batch deletion', () => {
    for (const name of ['batchCreation', 'batchTypeEdition'] as const) {
      const refused = setBatch(on(), name, true);
      expect(refused.error).toBe(TYPE_REQUIRED);
      expect(refused.state[name]).toBe(false);
      const allowed = setBatch(on({ defaultType: 'text_line' }), name, true);
      expect(allowed).toEqual({ state: expect.objectContaining({ [name]: true }), error: null });
    }
    expect(setBatch(on(), 'batchDeletion', true).state.batchDeletion).toBe(true);
    expect(TYPE_REQUIRED).toBe(
      'An element type is required to use batch creation or type edition.',
    );
  });

  it('turning any batch switch off clears the selection', () => {
    for (const name of ['batchCreation', 'batchTypeEdition', 'batchDeletion'] as const) {
      const state = on({ [name]: true, selected: 'zone-2', defaultType: 'line' });
      expect(setBatch(state, name, false).state).toMatchObject({ [name]: false, selected: null });
    }
  });

  it('clearing the default type turns off the batches that need it', () => {
    const state = on({
      defaultType: 'line',
      batchCreation: true,
      batchTypeEdition: true,
      batchDeletion: true,
    });
    expect(setDefaultType(state, null)).toMatchObject({
      defaultType: null,
      batchCreation: false,
      batchTypeEdition: false,
      batchDeletion: true,
    });
    expect(setDefaultType(state, 'word').defaultType).toBe('word');
  });
});
