/**
 * Input-to-paint latency of the annotation tools in Chromium, on a 5680×4180 page with 100 and
 * with 5,000 line polygons, side by side: dragging a point of the selected polygon (select tool),
 * and drawing a polygon (polygon tool: clicks add points, the dashed preview edge follows the
 * pointer). The real OverlayController, buildZoneSet, ImageTools and annotationStore are bundled
 * with Vite's build API and mounted on a 1280×800 canvas in a 1280×800 viewer element, behind a
 * fake viewer handle with a fixed image-to-screen matrix (the page fitted, or zoomed 4× on the
 * edited line). Real PointerEvents (mouse, and pen for one row) are dispatched on the viewer
 * element at 125 Hz, a mouse's report rate, as a timer fires them whatever the frame rate.
 *
 * Latency runs from performance.now() just before dispatchEvent to the end of the first
 * animation frame after it, in which the controller has redrawn: a requestAnimationFrame
 * callback registered right after the dispatch runs after the controller's own (callbacks run in
 * the order they were asked for) and reads one pixel back with getImageData, which makes the
 * canvas rasterise what the controller drew, inside the timing. Chosen over a task posted after
 * the frame (rAF + MessageChannel) because with no GPU there is no display to present to: such a
 * task would add the browser's commit of the frame, a cost that is the same whatever the number
 * of polygons, and still not tell when pixels reached a screen; the readback is what
 * bench/viewer.bench.ts times too, so the two files read together. "draw" is the part of that
 * spent in the frame: from the start of the controller's draw to the end of the readback; the
 * rest is the event handler and the wait for the frame (0 to 16.7 ms at 60 Hz, since a timer
 * fires the events; Chromium delivers a real pointermove just before a frame instead, after the
 * same wait spent in its input queue, which a dispatch-based figure cannot see either).
 *
 * The tools' actions (reshape, create) are stubs: what a release saves (the outbox, the zone list
 * read back, a new zone set) is not timed; the gesture's own drawing is. The drag presses the
 * first point of a line in the middle of the page and circles it; the polygons have 10 points on
 * a 120 px circle, 6 moves from one to the next, closed by a click on the first.
 *
 * Also the hover hit test a pointermove runs on the 5,000-line page: the controller's pick (the
 * spatial grid, then the polygon test on the few zones it returns) against a naive loop testing
 * every polygon with pointInPolygon, at random pointer positions over the fitted page, timed in
 * batches because one grid test is below the page's timer resolution (0.1 ms without
 * cross-origin isolation); the naive loop, at milliseconds a move, gets a tenth of the positions.
 */
import { chromium } from '@playwright/test';
import { bundleForPage, CHROMIUM, KEEP_NAMES_SCRIPT } from './bundle';

/** Measured events per case (pointermoves for the drag; moves and clicks for the polygon). */
const DRAG_MOVES = 300;
const POLYGONS = 6;
const HIT_POSITIONS = 2000;
const NAIVE_POSITIONS = 200;
const HIT_ROUNDS = 5;

const ENTRY = `
import { OverlayController } from '@/features/viewer/overlay/controller';
import { buildZoneSet } from '@/features/viewer/overlay/zoneSet';
import { ImageTools } from '@/features/annotation/imageTools';
import { annotationStore, INITIAL_STATE } from '@/features/annotation/state';
import { pointInPolygon } from '@/lib/geometry';
export { OverlayController, buildZoneSet, ImageTools, annotationStore, INITIAL_STATE, pointInPolygon };
`;

const bundle = () => bundleForPage(ENTRY, 'Annotation');

/**
 * The bits of the page this file touches, typed here because the benchmarks compile without
 * the DOM library (they run under Node; only pageRun runs in the browser).
 */
interface PageElement {
  style: { cssText: string; cursor: string };
  append(child: PageElement): void;
  dispatchEvent(event: unknown): boolean;
}
interface PageCanvas extends PageElement {
  width: number;
  height: number;
  getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): unknown };
}
type Matrix = [number, number, number, number, number, number];
type Ring = [number, number][];
interface Size {
  width: number;
  height: number;
}
interface Controller {
  setTool(tool: unknown): void;
  setSelected(index: number): void;
  pick(x: number, y: number): number;
  draw(): void;
  destroy(): void;
}
interface Tools {
  setZones(zones: { id: string; type: string; polygon: Ring }[], size: Size): void;
  dispose(): void;
}
interface AnnotationModule {
  OverlayController: new (
    viewer: unknown,
    canvas: PageCanvas,
    scene: unknown,
    imageSize: Size,
    callbacks: { onHover(index: number, x: number, y: number): void; onSelect(i: number): void },
  ) => Controller;
  buildZoneSet(zones: { id: string; polygon: Ring; styleKey: string }[]): { count: number };
  ImageTools: new (actions: Record<string, (...args: unknown[]) => void>) => Tools;
  annotationStore: { set(state: object): void };
  INITIAL_STATE: object;
  pointInPolygon(x: number, y: number, points: Ring): boolean;
}
interface PageGlobals {
  Annotation: AnnotationModule;
  document: {
    body: PageElement;
    createElement(tag: 'div'): PageElement;
    createElement(tag: 'canvas'): PageCanvas;
  };
  PointerEvent: new (type: string, init: Record<string, unknown>) => unknown;
  requestAnimationFrame(callback: (now: number) => void): number;
  setTimeout(callback: () => void, ms: number): number;
}

interface CaseSpec {
  label: string;
  gesture: 'drag' | 'polygon';
  pointerType: 'mouse' | 'pen';
  zoom: number;
}
interface HitResult {
  /** Microseconds per pointermove, one figure per round. */
  grid: number[];
  naive: number[];
  handler: number[];
  /** Positions over a line, by each method (the grid also takes a 3 px margin). */
  gridHits: number;
  naiveHits: number;
}
interface CaseResult {
  label: string;
  /** Latencies per kind of event measured ('move', 'click'). */
  latency: Record<string, number[]>;
  draw: number[];
  /** Gestures the tools completed in the timed pass: points released, polygons created. */
  reshaped: number;
  created: number;
}

/** Runs in the page: one viewer over one page of `lines` lines, every case in turn. */
async function pageRun(args: {
  lines: number;
  cases: CaseSpec[];
  dragMoves: number;
  polygons: number;
  hitPositions: number;
  naivePositions: number;
  hitRounds: number;
}): Promise<{ cases: CaseResult[]; hit: HitResult | null }> {
  const page = globalThis as unknown as PageGlobals;
  const A = page.Annotation;
  const W = 5680;
  const H = 4180;
  const WIDTH = 1280;
  const HEIGHT = 800;
  const INTERVAL = 8;

  // The page of bench/viewer.bench.ts: lines in a grid of columns, each a wavy upper and lower
  // edge of 8 points, about 8 times as wide as its row is high.
  let seed = 42;
  const random = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const zones: { id: string; type: string; polygon: Ring; styleKey: string }[] = [];
  const columns = Math.max(1, Math.round(Math.sqrt((args.lines * (W - 200)) / (8 * (H - 200)))));
  const rows = Math.ceil(args.lines / columns);
  const pitch = (H - 200) / rows;
  const columnWidth = (W - 200) / columns;
  for (let i = 0; i < args.lines; i += 1) {
    const x0 = 100 + (i % columns) * columnWidth;
    const y0 = 100 + Math.floor(i / columns) * pitch;
    const length = columnWidth * (0.7 + 0.25 * random());
    const thickness = pitch * 0.7;
    const upper: Ring = [];
    const lower: Ring = [];
    for (let k = 0; k < 8; k += 1) {
      const x = x0 + (length * k) / 7;
      upper.push([x, y0 + random() * thickness * 0.2]);
      lower.unshift([x, y0 + thickness - random() * thickness * 0.2]);
    }
    const polygon = [...upper, ...lower];
    polygon.push(polygon[0]!);
    zones.push({ id: `line-${i}`, type: 'text_line', polygon, styleKey: 'text_line' });
  }
  const set = A.buildZoneSet(zones);
  const scene = {
    zones: set,
    styles: [{ color: '#aa00aa' }],
    outline: Float64Array.from([0, 0, W, 0, W, H, 0, H]),
  };
  // The line edited: one in the middle of the page.
  const selected = Math.floor(args.lines / 2);
  const [vx, vy] = zones[selected]!.polygon[0]!;

  // A viewer handle over a plain element, as tests/app/support/fakeViewer.ts.
  const element = page.document.createElement('div');
  element.style.cssText = `position:relative;width:${WIDTH}px;height:${HEIGHT}px;overflow:hidden`;
  const canvas = page.document.createElement('canvas');
  canvas.style.cssText = `position:absolute;left:0;top:0;width:${WIDTH}px;height:${HEIGHT}px`;
  element.append(canvas);
  page.document.body.append(element);
  const fit = Math.min(WIDTH / W, HEIGHT / H);
  let matrix: Matrix = [fit, 0, 0, fit, (WIDTH - W * fit) / 2, (HEIGHT - H * fit) / 2];
  const listeners = new Set<(event: { type: string }) => void>();
  const handle = {
    element,
    imageToScreen: () => matrix,
    containerSize: () => ({ width: WIDTH, height: HEIGHT }),
    sourceSize: () => ({ width: W, height: H }),
    getZoom: () => matrix[0] / fit,
    getMaxZoom: () => 100,
    zoomTo: () => {},
    setOrientation: () => {},
    fitBounds: () => {},
    goHome: () => {},
    subscribe(listener: (event: { type: string }) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    destroy: () => listeners.clear(),
  };
  /** The page fitted (zoom 1) or zoomed on the edited point, which stays where it was. */
  const setZoom = (zoom: number) => {
    const s = fit * zoom;
    const cx = zoom === 1 ? W / 2 : vx;
    const cy = zoom === 1 ? H / 2 : vy;
    matrix = [s, 0, 0, s, WIDTH / 2 - cx * s, HEIGHT / 2 - cy * s];
    for (const listener of listeners) listener({ type: 'viewport' });
  };
  const toScreen = (x: number, y: number): [number, number] => [
    matrix[0] * x + matrix[2] * y + matrix[4],
    matrix[1] * x + matrix[3] * y + matrix[5],
  ];

  const ignore = () => {};
  const controller = new A.OverlayController(
    handle,
    canvas,
    scene,
    { width: W, height: H },
    { onHover: ignore, onSelect: ignore },
  );
  const done = { reshaped: 0, created: 0 };
  const tools = new A.ImageTools({
    select: ignore,
    create: () => (done.created += 1),
    reshape: () => (done.reshaped += 1),
    retype: ignore,
    remove: ignore,
  });
  tools.setZones(zones, { width: W, height: H });
  controller.setTool(tools);
  const ctx = canvas.getContext('2d');
  // When the controller's draw of a frame starts, to split the latency.
  let drawStart = 0;
  const draw = controller.draw.bind(controller);
  controller.draw = () => {
    drawStart = performance.now();
    draw();
  };

  interface Step {
    type: 'pointerdown' | 'pointermove' | 'pointerup';
    x: number;
    y: number;
    /** What the latency is filed under; unmeasured when absent. */
    kind?: string;
  }

  /** Dispatches the steps at 125 Hz; times each measured one to the end of its painted frame. */
  function drive(
    steps: Step[],
    pointerType: string,
  ): Promise<Pick<CaseResult, 'latency' | 'draw'>> {
    const pointerId = pointerType === 'pen' ? 2 : 1;
    return new Promise((resolve) => {
      const latency: Record<string, number[]> = {};
      const drawTimes: number[] = [];
      let pending: { kind: string; t0: number }[] = [];
      let waiting = false;
      let held = false;
      let next = 0;
      const start = performance.now() + INTERVAL;
      const finish = () => resolve({ latency, draw: drawTimes });
      const onFrame = () => {
        ctx.getImageData(0, 0, 1, 1);
        const t1 = performance.now();
        for (const p of pending) (latency[p.kind] ??= []).push(t1 - p.t0);
        drawTimes.push(t1 - drawStart);
        pending = [];
        waiting = false;
        if (next >= steps.length) finish();
      };
      const fire = () => {
        const step = steps[next]!;
        next += 1;
        if (step.type === 'pointerdown') held = true;
        if (step.type === 'pointerup') held = false;
        const event = new page.PointerEvent(step.type, {
          bubbles: true,
          cancelable: true,
          composed: true,
          clientX: step.x,
          clientY: step.y,
          pointerId,
          pointerType,
          isPrimary: true,
          button: step.type === 'pointermove' ? -1 : 0,
          buttons: held ? 1 : 0,
          pressure: held ? 0.5 : 0,
        });
        const t0 = performance.now();
        element.dispatchEvent(event);
        if (step.kind) {
          pending.push({ kind: step.kind, t0 });
          if (!waiting) {
            waiting = true;
            page.requestAnimationFrame(onFrame);
          }
        }
        if (next < steps.length) {
          page.setTimeout(fire, Math.max(0, start + next * INTERVAL - performance.now()));
        } else if (!waiting) finish();
      };
      page.setTimeout(fire, INTERVAL);
    });
  }

  /** Presses the selected line's first point and turns it round a 24 px circle, 30 moves a turn. */
  function dragSteps(moves: number): Step[] {
    const steps: Step[] = [];
    const [sx, sy] = toScreen(vx, vy);
    const perTurn = 30;
    for (let done = 0; done < moves;) {
      steps.push({ type: 'pointerdown', x: sx, y: sy });
      let x = sx;
      let y = sy;
      for (let k = 1; k <= perTurn && done < moves; k += 1, done += 1) {
        const a = (2 * Math.PI * k) / perTurn;
        x = sx + 12 * Math.sin(a);
        y = sy + 12 * (1 - Math.cos(a));
        steps.push({ type: 'pointermove', x, y, kind: 'move' });
      }
      steps.push({ type: 'pointerup', x, y });
    }
    return steps;
  }

  /**
   * Polygons of 10 points on a 120 px circle across the page's lines, each closed by a click on
   * its first point; 6 moves lead from one point to the next, a press and release adds it.
   */
  function polygonSteps(count: number): Step[] {
    const steps: Step[] = [];
    const points = 10;
    const between = 6;
    let [px, py] = [WIDTH / 2, HEIGHT / 2];
    for (let p = 0; p < count; p += 1) {
      const cx = WIDTH * (0.25 + 0.5 * ((p % 4) / 3));
      const cy = HEIGHT * (p % 2 === 0 ? 0.35 : 0.65);
      for (let k = 0; k <= points; k += 1) {
        const a = (2 * Math.PI * (k % points)) / points;
        const x = cx + 120 * Math.cos(a);
        const y = cy + 120 * Math.sin(a);
        for (let m = 1; m <= between; m += 1) {
          const t = m / between;
          steps.push({
            type: 'pointermove',
            x: px + (x - px) * t,
            y: py + (y - py) * t,
            kind: 'move',
          });
        }
        steps.push({ type: 'pointerdown', x, y });
        steps.push({ type: 'pointerup', x, y, kind: 'click' });
        [px, py] = [x, y];
      }
    }
    return steps;
  }

  const results: CaseResult[] = [];
  for (const c of args.cases) {
    setZoom(c.zoom);
    if (c.gesture === 'drag') {
      A.annotationStore.set({
        ...A.INITIAL_STATE,
        on: true,
        tool: 'select',
        selected: `line-${selected}`,
      });
      controller.setSelected(selected);
    } else {
      A.annotationStore.set({ ...A.INITIAL_STATE, on: true, tool: 'polygon' });
      controller.setSelected(-1);
    }
    const steps = c.gesture === 'drag' ? dragSteps(args.dragMoves) : polygonSteps(args.polygons);
    // One untimed pass warms the JIT and the canvas.
    const warm = c.gesture === 'drag' ? dragSteps(60) : polygonSteps(1);
    await drive(warm, c.pointerType);
    done.reshaped = 0;
    done.created = 0;
    const timed = await drive(steps, c.pointerType);
    results.push({ label: c.label, ...timed, ...done });
  }

  // Hover hit tests: the controller's pick against every polygon tested, same positions.
  let hit: HitResult | null = null;
  if (args.hitRounds > 0) {
    A.annotationStore.set({ ...A.INITIAL_STATE });
    controller.setTool(null);
    controller.setSelected(-1);
    setZoom(1);
    const positions: [number, number][] = [];
    for (let i = 0; i < args.hitPositions; i += 1) {
      positions.push(toScreen(W * random(), H * random()));
    }
    // The naive loop takes milliseconds a move: it gets the first positions only.
    const few = positions.slice(0, args.naivePositions);
    const grid = (list: [number, number][]) => {
      let hits = 0;
      for (const [x, y] of list) if (controller.pick(x, y) >= 0) hits += 1;
      return hits;
    };
    const naive = (list: [number, number][]) => {
      let hits = 0;
      for (const [x, y] of list) {
        // The inverse of the view, as pick computes it for each move.
        const det = matrix[0] * matrix[3] - matrix[1] * matrix[2];
        const ix = (matrix[3] * (x - matrix[4]) - matrix[2] * (y - matrix[5])) / det;
        const iy = (matrix[0] * (y - matrix[5]) - matrix[1] * (x - matrix[4])) / det;
        let found = -1;
        for (let i = 0; i < zones.length; i += 1) {
          if (A.pointInPolygon(ix, iy, zones[i]!.polygon)) found = i;
        }
        if (found >= 0) hits += 1;
      }
      return hits;
    };
    const handler = (list: [number, number][]) => {
      for (const [x, y] of list) {
        element.dispatchEvent(
          new page.PointerEvent('pointermove', {
            bubbles: true,
            clientX: x,
            clientY: y,
            pointerId: 1,
            pointerType: 'mouse',
            isPrimary: true,
            button: -1,
          }),
        );
      }
      return 0;
    };
    const perMove = (fn: (list: [number, number][]) => number, list: [number, number][]) => {
      const t0 = performance.now();
      fn(list);
      return ((performance.now() - t0) / list.length) * 1000;
    };
    hit = { grid: [], naive: [], handler: [], gridHits: grid(few), naiveHits: naive(few) };
    grid(positions);
    handler(positions);
    for (let round = 0; round < args.hitRounds; round += 1) {
      hit.grid.push(perMove(grid, positions));
      hit.naive.push(perMove(naive, few));
      hit.handler.push(perMove(handler, positions));
    }
  }
  controller.destroy();
  tools.dispose();
  return { cases: results, hit };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

interface Row {
  label: string;
  lines: number;
  events: number;
  p50: number;
  p95: number;
  max: number;
  draw: number;
}

function row(label: string, lines: number, times: number[], draw: number[]): Row {
  const sorted = [...times].sort((a, b) => a - b);
  const draws = [...draw].sort((a, b) => a - b);
  return {
    label,
    lines,
    events: times.length,
    p50: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    max: sorted[sorted.length - 1] ?? 0,
    draw: percentile(draws, 0.5),
  };
}

function printRows(rows: Row[]): void {
  const cells = rows.map((r) => [
    r.label,
    r.lines.toLocaleString('en'),
    String(r.events),
    r.p50.toFixed(1),
    r.p95.toFixed(1),
    r.max.toFixed(1),
    r.draw.toFixed(1),
  ]);
  const head = ['case', 'lines', 'events', 'p50 ms', 'p95 ms', 'max ms', 'draw p50 ms'];
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) =>
    c
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  console.log(line(head));
  for (const c of cells) console.log(line(c));
}

const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    0.5,
  );

export async function run(): Promise<void> {
  const code = await bundle();
  const browser = await chromium.launch(CHROMIUM);
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const content = `<!doctype html><body style="margin:0">${KEEP_NAMES_SCRIPT}<script>${code}</script></body>`;
    const drag = (label: string, pointerType: 'mouse' | 'pen', zoom: number): CaseSpec => ({
      label,
      gesture: 'drag',
      pointerType,
      zoom,
    });
    const polygon: CaseSpec = {
      label: 'polygon',
      gesture: 'polygon',
      pointerType: 'mouse',
      zoom: 1,
    };
    // Case by case, each size on a fresh page, so a change in the machine's load while the
    // benchmark runs falls on both sizes rather than on one.
    const cases: { spec: CaseSpec; sizes: number[] }[] = [
      { spec: drag('drag, mouse, fitted', 'mouse', 1), sizes: [100, 5000] },
      { spec: drag('drag, pen, fitted', 'pen', 1), sizes: [5000] },
      { spec: drag('drag, mouse, 4×', 'mouse', 4), sizes: [100, 5000] },
      { spec: polygon, sizes: [100, 5000] },
    ];
    const settings = {
      dragMoves: DRAG_MOVES,
      polygons: POLYGONS,
      hitPositions: HIT_POSITIONS,
      naivePositions: NAIVE_POSITIONS,
    };
    const rows: Row[] = [];
    const completed: string[] = [];
    for (const { spec, sizes } of cases) {
      for (const lines of sizes) {
        await page.setContent(content);
        const result = await page.evaluate(pageRun, {
          ...settings,
          lines,
          cases: [spec],
          hitRounds: 0,
        });
        for (const c of result.cases) {
          const name = (kind: string) =>
            c.label === 'polygon'
              ? kind === 'move'
                ? 'draw a polygon: preview edge follows a move'
                : 'draw a polygon: a click adds a point'
              : `drag a point (${c.label.replace('drag, ', '')}): pointermove`;
          for (const [kind, times] of Object.entries(c.latency)) {
            rows.push(row(name(kind), lines, times, c.draw));
          }
          completed.push(
            c.label === 'polygon'
              ? `polygon ${lines.toLocaleString('en')}: ${c.created} created`
              : `${c.label} ${lines.toLocaleString('en')}: ${c.reshaped} released`,
          );
        }
      }
    }
    await page.setContent(content);
    const { hit } = await page.evaluate(pageRun, {
      ...settings,
      lines: 5000,
      cases: [],
      hitRounds: HIT_ROUNDS,
    });
    rows.sort((a, b) => a.label.localeCompare(b.label) || a.lines - b.lines);
    console.log(
      `Chromium ${browser.version()}, 1280×800 viewer over a 5680×4180 page ("fitted": the whole page in view, every zone drawn; "4×": zoomed on the edited point); pointer events at 125 Hz`,
    );
    console.log(
      'Dispatch to the end of the frame that painted it ("draw": controller draw + readback, per frame, of the case):',
    );
    printRows(rows);
    console.log(`Gestures completed in the timed passes: ${completed.join('; ')}`);
    console.log('');
    const labels = [...new Set(rows.map((r) => r.label))];
    for (const label of labels) {
      const small = rows.find((r) => r.label === label && r.lines === 100);
      const large = rows.find((r) => r.label === label && r.lines === 5000);
      if (!small || !large) continue;
      const ratio = (key: 'p50' | 'p95' | 'max') => (large[key] / small[key]).toFixed(2);
      console.log(
        `5,000 / 100 lines, ${label}: p50 ${ratio('p50')}×, p95 ${ratio('p95')}×, max ${ratio('max')}×`,
      );
    }
    if (hit) {
      const grid = median(hit.grid);
      const naive = median(hit.naive);
      const handler = median(hit.handler);
      console.log(
        `\nHover hit test per pointermove, 5,000 lines, page fitted (median of ${HIT_ROUNDS} rounds over ${HIT_POSITIONS} random positions, the naive loop over ${NAIVE_POSITIONS} of them):`,
      );
      console.log(`  spatial grid (controller.pick): ${grid.toFixed(2)} µs`);
      console.log(`  naive, pointInPolygon over every zone: ${naive.toFixed(2)} µs`);
      console.log(`  whole pointermove dispatch with the grid: ${handler.toFixed(2)} µs`);
      console.log(`  naive / grid: ${(naive / grid).toFixed(0)}×`);
      console.log(
        `  of ${NAIVE_POSITIONS} positions, over a line: ${hit.gridHits} by the grid (3 px margin), ${hit.naiveHits} by the naive loop`,
      );
    }
  } finally {
    await browser.close();
  }
}
