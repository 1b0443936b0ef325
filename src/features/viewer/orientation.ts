/**
 * The API's orientation (mirror the image, then rotate it clockwise) against OpenSeadragon's
 * (rotate the view, then mirror the whole canvas). Mirroring after a rotation by r equals
 * rotating by -r after mirroring, so a mirrored element needs OpenSeadragon's rotation negated.
 */
import { normalizeRotation } from '@/lib/geometry';

export function osdOrientation(
  degrees: number,
  mirrored: boolean,
): { rotation: number; flip: boolean } {
  const quarter = normalizeRotation(degrees);
  return { rotation: mirrored ? normalizeRotation(-quarter) : quarter, flip: mirrored };
}

/** Rotation choices of spec 001 §9. */
export const ROTATIONS = [0, 90, 180, 270] as const;

export function rotateBy(degrees: number, step: 90 | -90): number {
  return normalizeRotation(degrees + step);
}
