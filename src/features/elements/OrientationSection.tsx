/**
 * Orientation of the element details panel (spec 001 §2, §4): rotation 0, 90, 180 or 270 and
 * mirroring, saved as soon as they change, through the outbox.
 */
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { invalidateElements } from '@/api/elements';
import { errorMessage } from '@/api/errors';
import type { Element } from '@/api/types';
import { PanelSection } from '@/components/PanelSection';
import { notify } from '@/components/notifications/store';
import { ui } from '@/components/styles';
import { updateElement } from '@/offline/elementWrites';

export const ROTATIONS = [0, 90, 180, 270] as const;

export function OrientationSection({ element, canWrite }: { element: Element; canWrite: boolean }) {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);
  const save = async (change: { rotation_angle?: number; mirrored?: boolean }) => {
    setPending(true);
    try {
      await updateElement(element.id, change);
    } catch (error) {
      notify({
        type: 'error',
        text: `An error occurred while updating the element: ${errorMessage(error)}`,
      });
    } finally {
      setPending(false);
      await invalidateElements(queryClient);
    }
  };
  return (
    <PanelSection title="Orientation">
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <label className="flex items-center gap-2">
          Rotation
          <select
            className={`${ui.input} mt-0 w-24`}
            value={element.rotation_angle ?? 0}
            disabled={!canWrite || pending}
            onChange={(event) => void save({ rotation_angle: Number(event.target.value) })}
          >
            {ROTATIONS.map((degrees) => (
              <option key={degrees} value={degrees}>
                {degrees}°
              </option>
            ))}
          </select>
        </label>
        <label className="flex items-center gap-2">
          <input
            type="checkbox"
            className={ui.checkbox}
            checked={element.mirrored ?? false}
            disabled={!canWrite || pending}
            onChange={(event) => void save({ mirrored: event.target.checked })}
          />
          Mirrored
        </label>
      </div>
    </PanelSection>
  );
}
