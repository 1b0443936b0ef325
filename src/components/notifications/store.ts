import { createStore } from '@/lib/store';
import { TRUNCATE, truncate } from '@/lib/truncate';
import { errorMessage } from '@/api/errors';

export type NotificationType = 'info' | 'warning' | 'error' | 'success';

export interface NotificationLink {
  url: string;
  text: string;
}

export interface Notification {
  id: number;
  type: NotificationType;
  text: string;
  /** Milliseconds before it closes itself; 0 keeps it until closed. */
  timeout: number;
  link: NotificationLink | null;
  markdown: boolean;
}

export const DEFAULT_TIMEOUT = 5000;

export const notifications = createStore<Notification[]>([]);
let nextId = 1;
const timers = new Map<number, ReturnType<typeof setTimeout>>();

export interface NotifyOptions {
  type?: NotificationType;
  text: string;
  timeout?: number;
  link?: NotificationLink | null;
  markdown?: boolean;
}

export function notify(options: NotifyOptions): number {
  const notification: Notification = {
    id: nextId++,
    type: options.type ?? 'info',
    text: truncate(options.text, TRUNCATE.notification),
    timeout: options.timeout ?? DEFAULT_TIMEOUT,
    link: options.link ?? null,
    markdown: options.markdown ?? false,
  };
  // The same words again (a series of saves) replace the earlier ones rather than pile up over
  // the page: the newest stays its full time.
  const same = notifications
    .get()
    .filter(
      (shown) =>
        shown.type === notification.type &&
        shown.text === notification.text &&
        shown.link?.url === notification.link?.url,
    );
  for (const shown of same) dismiss(shown.id);
  notifications.set((list) => [...list, notification]);
  if (notification.timeout > 0) {
    timers.set(
      notification.id,
      setTimeout(() => dismiss(notification.id), notification.timeout),
    );
  }
  return notification.id;
}

export function dismiss(id: number): void {
  const timer = timers.get(id);
  if (timer) clearTimeout(timer);
  timers.delete(id);
  notifications.set((list) => list.filter((notification) => notification.id !== id));
}

/** Every failure shows an error notification with its message (spec 000 §8). */
export function notifyError(error: unknown, prefix?: string): number {
  const message = errorMessage(error);
  return notify({ type: 'error', text: prefix ? `${prefix}: ${message}` : message });
}
