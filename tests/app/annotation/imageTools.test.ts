import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ImageTools, type ToolActions } from '@/features/annotation/imageTools';
import { annotationStore, INITIAL_STATE, type Tool } from '@/features/annotation/state';
import type { ToolPointer } from '@/lib/pointerTool';

/** A pointer at image (x, y) in a view showing one image pixel per screen pixel. */
const at = (x: number, y: number, scale = 1): ToolPointer => ({
  x,
  y,
  screenX: x / scale,
  screenY: y / scale,
  imagePerScreen: scale,
  pointerType: 'mouse',
  shiftKey: false,
});

const SQUARE = {
  id: 'zone-a',
  type: 'line',
  polygon: [
    [100, 100],
    [200, 100],
    [200, 200],
    [100, 200],
    [100, 100],
  ] as [number, number][],
};

let actions: { [K in keyof ToolActions]: ReturnType<typeof vi.fn> };
let tools: ImageTools;

function use(tool: Tool, patch = {}) {
  annotationStore.set({ ...INITIAL_STATE, on: true, tool, ...patch });
}

beforeEach(() => {
  actions = {
    select: vi.fn(),
    create: vi.fn(),
    reshape: vi.fn(),
    retype: vi.fn(),
    remove: vi.fn(),
  };
  tools = new ImageTools(actions as unknown as ToolActions);
  tools.setZones([SQUARE], { width: 1000, height: 800 });
});
afterEach(() => {
  tools.dispose();
  annotationStore.set(INITIAL_STATE);
});

describe('the annotation tools on the image', () => {
  it('take no pointer while annotation mode is off', () => {
    annotationStore.set({ ...INITIAL_STATE, tool: 'rectangle' });
    expect(tools.down(at(10, 10), -1)).toBe(false);
    expect(tools.click(at(10, 10), 0)).toBe(false);
  });

  it('rectangle: a drag creates the rectangle, whatever its direction; a click creates nothing', () => {
    use('rectangle');
    expect(tools.down(at(300, 400), -1)).toBe(true);
    tools.move(at(250, 420));
    expect(tools.draftShape()).toEqual([
      [250, 400],
      [250, 420],
      [300, 420],
      [300, 400],
      [250, 400],
    ]);
    tools.up(at(220, 450));
    expect(actions.create).toHaveBeenCalledWith([
      [220, 400],
      [220, 450],
      [300, 450],
      [300, 400],
      [220, 400],
    ]);
    tools.down(at(50, 50), -1);
    tools.up(at(51, 51));
    expect(actions.create).toHaveBeenCalledTimes(1);
  });

  it('polygon: each click adds a point, a click on the first point closes and creates it', () => {
    use('polygon');
    for (const [x, y] of [
      [10, 10],
      [80, 10],
      [80, 60],
    ]) {
      expect(tools.down(at(x!, y!), -1)).toBe(true);
      tools.up(at(x!, y!));
    }
    expect(annotationStore.get().drawing).toEqual([
      [10, 10],
      [80, 10],
      [80, 60],
    ]);
    expect(actions.create).not.toHaveBeenCalled();
    // Within a few screen pixels of the first point (tolerance scales with the zoom).
    tools.down(at(14, 14, 2), -1);
    tools.up(at(14, 14, 2));
    expect(actions.create).toHaveBeenCalledWith([
      [10, 10],
      [80, 10],
      [80, 60],
    ]);
    expect(annotationStore.get().drawing).toBeNull();
  });

  it('polygon: a double click closes it, without the point its second press added', () => {
    use('polygon', {
      drawing: [
        [10, 10],
        [80, 10],
        [80, 60],
        [30, 60],
        [31, 61],
      ],
    });
    expect(tools.doubleClick(at(31, 61))).toBe(true);
    expect(actions.create).toHaveBeenCalledWith([
      [10, 10],
      [80, 10],
      [80, 60],
      [30, 60],
    ]);
  });

  it('polygon: Esc (cancel) drops the points drawn so far', () => {
    use('polygon', { drawing: [[10, 10]] });
    expect(tools.cancel()).toBe(true);
    expect(annotationStore.get().drawing).toBeNull();
    expect(tools.cancel()).toBe(false);
  });

  it('select: a click picks a zone; dragging a point of the selected zone reshapes it', () => {
    use('select');
    expect(tools.click(at(150, 150), 0)).toBe(true);
    expect(actions.select).toHaveBeenCalledWith('zone-a');
    use('select', { selected: 'zone-a' });
    expect(tools.down(at(203, 198), 0)).toBe(true);
    tools.move(at(260, 230));
    tools.up(at(260, 230));
    // Open rings: the zone is closed when it is prepared for saving.
    expect(actions.reshape).toHaveBeenCalledWith('zone-a', [
      [100, 100],
      [200, 100],
      [260, 230],
      [100, 200],
    ]);
  });

  it('select: dragging inside the selected zone moves it whole, kept inside the image', () => {
    use('select', { selected: 'zone-a' });
    expect(tools.down(at(150, 150), 0)).toBe(true);
    tools.move(at(1100, 160));
    tools.up(at(1100, 160));
    const [, moved] = actions.reshape.mock.calls[0]!;
    expect(moved).toEqual([
      [900, 110],
      [1000, 110],
      [1000, 210],
      [900, 210],
    ]);
  });

  it('select: a press outside the selected zone is left to the viewer (it pans)', () => {
    use('select', { selected: 'zone-a' });
    expect(tools.down(at(500, 500), -1)).toBe(false);
    use('select');
    expect(tools.down(at(150, 150), 0)).toBe(false);
  });

  it('select: Esc during a drag puts the zone back and saves nothing', () => {
    use('select', { selected: 'zone-a' });
    tools.down(at(150, 150), 0);
    tools.move(at(170, 170));
    expect(tools.cancel()).toBe(true);
    expect(tools.draftShape()).toBeNull();
    expect(actions.reshape).not.toHaveBeenCalled();
  });

  it('median: a press on an edge of the selected zone inserts a point there', () => {
    use('median', { selected: 'zone-a' });
    expect(tools.down(at(150, 103), 0)).toBe(true);
    expect(actions.reshape).toHaveBeenCalledWith('zone-a', [
      [100, 100],
      [150, 100],
      [200, 100],
      [200, 200],
      [100, 200],
    ]);
    expect(tools.down(at(150, 150), 0)).toBe(false);
  });

  it('type edit and deletion act on the zone clicked, nothing on the background', () => {
    use('type-edit');
    expect(tools.click(at(150, 150), 0)).toBe(true);
    expect(actions.retype).toHaveBeenCalledWith('zone-a');
    use('deletion');
    tools.click(at(500, 500), -1);
    expect(actions.remove).not.toHaveBeenCalled();
    tools.click(at(150, 150), 0);
    expect(actions.remove).toHaveBeenCalledWith('zone-a');
  });

  it('shows a saved shape until the zones list has it', () => {
    use('select');
    const moved: [number, number][] = [
      [0, 0],
      [10, 0],
      [10, 10],
    ];
    const repaint = vi.fn();
    tools.subscribe(repaint);
    tools.showPending('zone-a', moved);
    expect(repaint).toHaveBeenCalled();
    use('select', { selected: 'zone-a' });
    // The stand-in is what the select tool grabs until the list catches up.
    expect(tools.down(at(10, 10), -1)).toBe(true);
    tools.cancel();
    tools.setZones([{ ...SQUARE, polygon: moved }], { width: 1000, height: 800 });
    expect(tools.down(at(200, 200), -1)).toBe(false);
  });
});
