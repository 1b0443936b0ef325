/**
 * Zones traced point by point, mapped to device pixels here rather than through the context's
 * transform, so line widths and dashes stay in screen pixels whatever the zoom.
 */
import type { Matrix } from '@/lib/geometry';
import type { SimplifiedZones } from './simplifiedLevels';
import type { ZoneSet } from './zoneSet';

/**
 * Strokes the zones listed in `zones.scratch[0 .. count)` in batches per colour (with `skip`
 * left out): one path per polygon costs a call each, while one path for thousands of polygons
 * rasterises superlinearly (Chromium's software canvas took 10× longer).
 */
export function strokeByStyle(
  ctx: Pick<
    CanvasRenderingContext2D,
    'beginPath' | 'moveTo' | 'lineTo' | 'closePath' | 'stroke' | 'strokeStyle'
  >,
  zones: ZoneSet,
  shapes: SimplifiedZones,
  count: number,
  m: Matrix,
  batch: number,
  colorOf: (style: number) => string,
  skip: (i: number) => boolean = () => false,
): void {
  const visible = zones.scratch;
  const { coords, offsets } = shapes;
  for (let style = 0; style < zones.styleKeys.length; style += 1) {
    ctx.strokeStyle = colorOf(style);
    let batched = 0;
    ctx.beginPath();
    for (let k = 0; k < count; k += 1) {
      const i = visible[k]!;
      if (zones.styles[i] !== style || skip(i)) continue;
      tracePolygon(ctx, m, coords, offsets[i]!, offsets[i + 1]!);
      batched += 1;
      if (batched === batch) {
        ctx.stroke();
        ctx.beginPath();
        batched = 0;
      }
    }
    if (batched) ctx.stroke();
  }
}

export function tracePolygon(
  ctx: Pick<CanvasRenderingContext2D, 'moveTo' | 'lineTo' | 'closePath'>,
  m: Matrix,
  coords: Float64Array,
  start: number,
  end: number,
): void {
  if (end - start < 2) return;
  const [a, b, c, d, e, f] = m;
  let x = coords[start * 2]!;
  let y = coords[start * 2 + 1]!;
  ctx.moveTo(a * x + c * y + e, b * x + d * y + f);
  for (let i = start + 1; i < end; i += 1) {
    x = coords[i * 2]!;
    y = coords[i * 2 + 1]!;
    ctx.lineTo(a * x + c * y + e, b * x + d * y + f);
  }
  ctx.closePath();
}
