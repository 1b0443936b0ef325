import { useStore } from '@/lib/store';
import { renderMarkdown } from '@/lib/markdown';
import { dismiss, notifications, type NotificationType } from './store';

const STYLES: Record<NotificationType, string> = {
  info: 'border-sky-300 bg-sky-50 text-sky-900',
  warning: 'border-amber-300 bg-amber-50 text-amber-900',
  error: 'border-red-300 bg-red-50 text-red-900',
  success: 'border-emerald-300 bg-emerald-50 text-emerald-900',
};

export function Notifications() {
  const list = useStore(notifications);
  return (
    <div
      aria-live="polite"
      className="pointer-events-none fixed right-4 bottom-4 z-50 flex w-96 max-w-[calc(100vw-2rem)] flex-col gap-2"
    >
      {list.map((notification) => (
        <div
          key={notification.id}
          role={notification.type === 'error' ? 'alert' : 'status'}
          data-type={notification.type}
          className={`pointer-events-auto flex items-start gap-2 rounded border px-3 py-2 text-sm shadow ${STYLES[notification.type]}`}
        >
          <div className="min-w-0 flex-1 break-words">
            {notification.markdown ? (
              <div
                className="prose-sm [&_a]:underline"
                dangerouslySetInnerHTML={{ __html: renderMarkdown(notification.text) }}
              />
            ) : (
              <p className="whitespace-pre-wrap">{notification.text}</p>
            )}
            {notification.link && (
              <a className="mt-1 inline-block font-medium underline" href={notification.link.url}>
                {notification.link.text}
              </a>
            )}
          </div>
          <button
            type="button"
            aria-label="Close notification"
            className="shrink-0 rounded px-1 opacity-60 hover:opacity-100"
            onClick={() => dismiss(notification.id)}
          >
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
