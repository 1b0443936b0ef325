// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import {
  applyMatrix,
  mirrorX,
  multiply,
  rotation,
  scaling,
  translation,
  type Point,
} from '@/lib/geometry';
import { osdOrientation } from '@/features/viewer/orientation';
import { buildZoneSet } from '@/features/viewer/overlay/zoneSet';
import { ViewerContext } from '@/features/viewer/viewerContext';
import { ZoneOverlay } from '@/features/viewer/ZoneOverlay';
import { ImageTools } from '@/features/annotation/imageTools';
import { setFingerDrawing } from '@/features/annotation/fingerDrawing';
import { annotationStore, INITIAL_STATE } from '@/features/annotation/state';
import type { PointerTool } from '@/lib/pointerTool';
import { createFakeViewer } from '../support/fakeViewer';
import { installRecordingCanvas } from '../support/recordingCanvas';

afterEach(cleanup);

const square = (x: number, y: number, size: number): Point[] => [
  [x, y],
  [x, y + size],
  [x + size, y + size],
  [x + size, y],
];

function setup(tool: PointerTool | null = null) {
  const ctx = installRecordingCanvas();
  const viewer = createFakeViewer({ width: 800, height: 600 }, { width: 1000, height: 1500 });
  const zones = buildZoneSet([
    { id: 'top-left', polygon: square(50, 50, 100), styleKey: 'line' },
    { id: 'bottom-right', polygon: square(800, 1300, 100), styleKey: 'line' },
  ]);
  const onSelect = vi.fn();
  render(
    <ViewerContext.Provider value={viewer}>
      <ZoneOverlay
        scene={{ zones, styles: [{ color: '#aa00aa' }], outline: null }}
        labels={['Top left', 'Bottom right']}
        imageSize={{ width: 1000, height: 1500 }}
        selected={-1}
        onSelect={onSelect}
        tool={tool}
      />
    </ViewerContext.Provider>,
  );
  act(() => viewer.open());
  return { ctx, viewer, onSelect };
}

function click(element: HTMLElement, [x, y]: [number, number]) {
  fireEvent.pointerDown(element, { clientX: x, clientY: y, button: 0 });
  fireEvent.pointerUp(element, { clientX: x, clientY: y, button: 0 });
}

describe('zone overlay', () => {
  it('stays on the zones when the view is rotated and mirrored', async () => {
    const { ctx, viewer, onSelect } = setup();
    // What OpenSeadragon shows for a page turned a quarter clockwise and mirrored: rotate the
    // view, then flip the canvas about its middle (x = 400).
    const { rotation: degrees, flip } = osdOrientation(90, true);
    expect(flip).toBe(true);
    const view = multiply(
      mirrorX(400),
      multiply(translation(100, 500), multiply(rotation(degrees), scaling(0.4))),
    );
    act(() => viewer.setMatrix(view));

    const centre = (x: number, y: number) => applyMatrix(view, x, y);
    await waitFor(() => expect(ctx.frame[0]?.points[0]).toEqual(centre(50, 50)));

    click(viewer.element, centre(100, 100));
    expect(onSelect).toHaveBeenLastCalledWith(0);
    click(viewer.element, centre(850, 1350));
    expect(onSelect).toHaveBeenLastCalledWith(1);
    // Where the top-left zone would be without the transform: nothing.
    click(viewer.element, [40, 40]);
    expect(onSelect).toHaveBeenLastCalledWith(-1);

    fireEvent.pointerMove(viewer.element, {
      clientX: centre(850, 1350)[0],
      clientY: centre(850, 1350)[1],
    });
    expect(await screen.findByRole('tooltip')).toHaveProperty('textContent', 'Bottom right');
    expect(viewer.element.style.cursor).toBe('pointer');
    fireEvent.pointerLeave(viewer.element);
    await waitFor(() => expect(screen.queryByRole('tooltip')).toBeNull());
  });

  it('follows the zones moving under a still pointer, and hides the label while panning', async () => {
    const { viewer } = setup();
    // Scale 0.4: the top-left zone covers screen 20–60 each way.
    fireEvent.pointerMove(viewer.element, { clientX: 40, clientY: 40 });
    expect(await screen.findByRole('tooltip')).toHaveProperty('textContent', 'Top left');
    // A wheel zoom to 100 %: the pointer is now beside the zone.
    act(() => viewer.setView(1));
    await waitFor(() => expect(screen.queryByRole('tooltip')).toBeNull());
    act(() => viewer.setView(0.4));
    expect(await screen.findByRole('tooltip')).toHaveProperty('textContent', 'Top left');
    fireEvent.pointerDown(viewer.element, { clientX: 40, clientY: 40, button: 0 });
    await waitFor(() => expect(screen.queryByRole('tooltip')).toBeNull());
  });

  it('stops listening when it goes', () => {
    const { viewer, onSelect } = setup();
    cleanup();
    click(viewer.element, [40, 40]);
    expect(onSelect).not.toHaveBeenCalled();
  });

  it('hands mouse and pen to the annotation tools in image coordinates, on a rotated and mirrored view; touch pans', async () => {
    const create = vi.fn();
    const tools = new ImageTools({
      select: vi.fn(),
      create,
      reshape: vi.fn(),
      retype: vi.fn(),
      remove: vi.fn(),
    });
    tools.setZones([], { width: 1000, height: 1500 });
    annotationStore.set({ ...INITIAL_STATE, on: true, tool: 'rectangle' });
    const { viewer, onSelect } = setup(tools);
    const { rotation: degrees } = osdOrientation(90, true);
    const view = multiply(
      mirrorX(400),
      multiply(translation(100, 500), multiply(rotation(degrees), scaling(0.4))),
    );
    act(() => viewer.setMatrix(view));
    const at = (x: number, y: number) => {
      const [clientX, clientY] = applyMatrix(view, x, y);
      return { clientX, clientY, button: 0, pointerId: 1 };
    };
    for (const pointerType of ['mouse', 'pen']) {
      fireEvent.pointerDown(viewer.element, { ...at(200, 300), pointerType });
      fireEvent.pointerMove(viewer.element, { ...at(500, 450), pointerType });
      fireEvent.pointerUp(viewer.element, { ...at(500, 450), pointerType });
    }
    expect(create).toHaveBeenCalledTimes(2);
    for (const [points] of create.mock.calls) {
      expect((points as number[][]).map(([x, y]) => [Math.round(x!), Math.round(y!)])).toEqual([
        [200, 300],
        [200, 450],
        [500, 450],
        [500, 300],
        [200, 300],
      ]);
    }
    // A finger drags the view: no shape, and the tap is no selection either.
    fireEvent.pointerDown(viewer.element, { ...at(200, 300), pointerType: 'touch' });
    fireEvent.pointerUp(viewer.element, { ...at(600, 600), pointerType: 'touch' });
    expect(create).toHaveBeenCalledTimes(2);
    expect(onSelect).not.toHaveBeenCalled();
    tools.dispose();
    annotationStore.set(INITIAL_STATE);
  });
});

describe('drawing with a finger', () => {
  function fingerTools() {
    const create = vi.fn();
    const tools = new ImageTools({
      select: vi.fn(),
      create,
      reshape: vi.fn(),
      retype: vi.fn(),
      remove: vi.fn(),
    });
    tools.setZones([], { width: 1000, height: 1500 });
    const { viewer } = setup(tools);
    act(() => viewer.setView(0.5));
    const finger = (id: number, x: number, y: number) => ({
      clientX: x * 0.5,
      clientY: y * 0.5,
      button: 0,
      pointerId: id,
      pointerType: 'touch',
    });
    return { tools, viewer, create, finger };
  }

  afterEach(() => {
    setFingerDrawing(false);
    annotationStore.set(INITIAL_STATE);
  });

  it('lets one finger draw as a pen does once it is on, holding the view still meanwhile', () => {
    annotationStore.set({ ...INITIAL_STATE, on: true, tool: 'rectangle' });
    const { tools, viewer, create, finger } = fingerTools();
    // Off: the finger pans, as before.
    fireEvent.pointerDown(viewer.element, finger(1, 100, 100));
    expect(viewer.touchGestures.dragToPan).toBe(true);
    fireEvent.pointerUp(viewer.element, finger(1, 400, 300));
    expect(create).not.toHaveBeenCalled();

    act(() => setFingerDrawing(true));
    fireEvent.pointerDown(viewer.element, finger(2, 100, 100));
    expect(viewer.touchGestures).toEqual({
      dragToPan: false,
      flickEnabled: false,
      dblClickToZoom: false,
    });
    fireEvent.pointerMove(viewer.element, finger(2, 250, 200));
    fireEvent.pointerUp(viewer.element, finger(2, 400, 300));
    expect(create).toHaveBeenCalledTimes(1);
    expect((create.mock.calls[0]![0] as number[][]).map(([x, y]) => [x, y])).toEqual([
      [100, 100],
      [100, 300],
      [400, 300],
      [400, 100],
      [100, 100],
    ]);
    // Between strokes a finger pans again; two taps stay two taps, not a zoom.
    expect(viewer.touchGestures).toEqual({
      dragToPan: true,
      flickEnabled: false,
      dblClickToZoom: false,
    });
    tools.dispose();
  });

  it('gives two fingers to the view: a second finger ends the stroke, a polygon under way stays', () => {
    setFingerDrawing(true);
    annotationStore.set({ ...INITIAL_STATE, on: true, tool: 'rectangle' });
    const { tools, viewer, create, finger } = fingerTools();
    fireEvent.pointerDown(viewer.element, finger(1, 100, 100));
    fireEvent.pointerMove(viewer.element, finger(1, 200, 200));
    fireEvent.pointerDown(viewer.element, finger(2, 500, 500));
    expect(viewer.touchGestures.dragToPan).toBe(true);
    fireEvent.pointerMove(viewer.element, finger(1, 300, 300));
    fireEvent.pointerUp(viewer.element, finger(1, 300, 300));
    fireEvent.pointerUp(viewer.element, finger(2, 600, 600));
    expect(create).not.toHaveBeenCalled();
    expect(tools.draftShape()).toBeNull();

    act(() => annotationStore.set((state) => ({ ...state, tool: 'polygon' })));
    for (const [x, y] of [
      [100, 100],
      [400, 100],
    ]) {
      fireEvent.pointerDown(viewer.element, finger(3, x!, y!));
      fireEvent.pointerUp(viewer.element, finger(3, x!, y!));
    }
    // A pinch to look closer before the third point.
    fireEvent.pointerDown(viewer.element, finger(4, 300, 300));
    fireEvent.pointerDown(viewer.element, finger(5, 500, 500));
    fireEvent.pointerUp(viewer.element, finger(4, 250, 250));
    fireEvent.pointerUp(viewer.element, finger(5, 550, 550));
    expect(annotationStore.get().drawing).toEqual([
      [100, 100],
      [400, 100],
    ]);
    tools.dispose();
  });
});
