/**
 * The selection toggle as screens use it (element cards, the element page): one hook over the
 * local selection, so any screen can offer it without knowing how the selection is kept.
 */
import { useCallback, useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { serverInfoQuery } from '@/api/serverInfo';
import type { ElementListItem, User } from '@/api/types';
import { currentUserQuery, isVerified } from '@/api/user';
import { RIGHT_MESSAGES } from '@/lib/rights';
import { useStore } from '@/lib/store';
import { isSelected, type SelectedProject } from './selection';
import { localSelection } from './selectionRuntime';

/** The toggle's tooltip for anonymous visitors (spec 001 §2: disabled when not logged in). */
export const LOG_IN_TO_SELECT = 'Log in to select elements';

export interface SelectionToggle {
  selected: boolean;
  onToggle: () => void;
  /** Why the toggle cannot be used; null when it can. */
  disabledReason: string | null;
}

/** Spec 000 §6: the selection is for verified users of a server with the selection feature. */
export function useSelectionAccess(): {
  user: User | null | undefined;
  feature: boolean;
  enabled: boolean;
} {
  const info = useQuery(serverInfoQuery).data;
  const user = useQuery({ ...currentUserQuery, enabled: !!info }).data;
  const feature = !!info?.features?.selection;
  return { user, feature, enabled: feature && isVerified(user) };
}

export function useSelectionState() {
  return useStore(localSelection.store);
}

/**
 * The toggle of one element: undefined where the server has no selection feature; disabled,
 * saying why, for anonymous and unverified users.
 */
export function useSelectionToggle(): (
  element: ElementListItem,
  project: SelectedProject,
) => SelectionToggle | undefined {
  const { user, feature, enabled } = useSelectionAccess();
  const state = useSelectionState();
  const reason = !user ? LOG_IN_TO_SELECT : enabled ? null : RIGHT_MESSAGES.verified;
  const userId = enabled ? (user?.id ?? null) : null;
  // The app's root opens the selection too; a screen shown on its own must not depend on it.
  useEffect(() => {
    if (userId) void localSelection.open(userId);
  }, [userId]);
  return useCallback(
    (element, project) => {
      if (!feature) return undefined;
      return {
        selected: isSelected(state, element.id),
        disabledReason: reason,
        onToggle: () => void localSelection.toggle(element, project),
      };
    },
    [state, reason, feature],
  );
}
