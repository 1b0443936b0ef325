import { useEffect } from 'react';
import { notify } from '@/components/notifications/store';
import { selectedRows } from '@/offline/selection';
import { localSelection } from '@/offline/selectionRuntime';
import { useSelectionAccess, useSelectionState } from '@/offline/selectionToggle';

/**
 * Opens the user's selection from this device, then reads the server's (verified users of a
 * server with the selection feature only, spec 000 §6) and keeps both in step as the network
 * comes and goes. Mounted once, by the app's root; gives the navbar its count and loader.
 */
export function useSelectionSummary(): { count: number; loading: boolean } {
  const { user, enabled } = useSelectionAccess();
  const userId = enabled && user ? user.id : null;
  useEffect(() => {
    localSelection.onRejected = (rejections) => {
      for (const { element, message } of rejections) {
        notify({ type: 'error', text: `${element.name} could not be selected: ${message}` });
      }
    };
    void localSelection.open(userId).then(() => localSelection.refresh());
    const stop = localSelection.watchConnectivity();
    // Another tab, or a job (worker results putting failures in the selection), may have
    // changed it meanwhile: coming back to the tab reads it again.
    const onFocus = () => void localSelection.refresh();
    window.addEventListener('focus', onFocus);
    return () => {
      stop();
      window.removeEventListener('focus', onFocus);
      localSelection.onRejected = null;
    };
  }, [userId]);
  const state = useSelectionState();
  return { count: selectedRows(state).length, loading: state.reading };
}
