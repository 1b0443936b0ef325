import { registerSW } from 'virtual:pwa-register';
import { createStore } from '@/lib/store';

/** Set when a new version is installed and waiting: the update prompt reads it. */
export const updateAvailable = createStore(false);
let update: ((reload?: boolean) => Promise<void>) | null = null;

export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  update = registerSW({
    immediate: true,
    onNeedRefresh() {
      updateAvailable.set(true);
    },
  });
}

/** The user accepted the update: the waiting worker takes over and the page reloads. */
export async function applyUpdate(): Promise<void> {
  updateAvailable.set(false);
  await update?.(true);
}
