import { useLayoutEffect, useRef, useState, type CSSProperties } from 'react';
import { useStore } from '@/lib/store';
import { MarkdownContent } from '@/components/MarkdownContent';
import { MARGIN_PX, placeStack, type Placement, type Rect } from './placement';
import { dismiss, notifications, type NotificationType } from './store';

const STYLES: Record<NotificationType, string> = {
  info: 'border-sky-300 bg-sky-50 text-sky-900',
  warning: 'border-amber-300 bg-amber-50 text-amber-900',
  error: 'border-red-300 bg-red-50 text-red-900',
  success: 'border-emerald-300 bg-emerald-50 text-emerald-900',
};

/** The control the user last pressed: a notice it brings must not cover it. */
let lastPressed: Element | null = null;
const CONTROL = 'button, a[href], input, select, [role="button"], [role="switch"]';
const rememberPressed = (event: Event) => {
  if (event instanceof KeyboardEvent && event.key !== 'Enter' && event.key !== ' ') return;
  if (event.target instanceof Element) lastPressed = event.target.closest(CONTROL);
};

/** The boxes on screen now of what matches, the stack's own buttons aside. */
function boxes(stack: HTMLElement, elements: Iterable<Element>): Rect[] {
  return [...elements]
    .filter((element) => !stack.contains(element))
    .map((element) => element.getBoundingClientRect());
}

/** What the stack must not cover. */
const keepClear = (stack: HTMLElement) =>
  boxes(stack, [
    ...document.querySelectorAll('[data-keep-clear], [role="dialog"] button'),
    ...(lastPressed?.isConnected ? [lastPressed] : []),
  ]);

const styleOf = ({ corner, offset }: Placement): CSSProperties => ({
  [corner.startsWith('bottom') ? 'bottom' : 'top']: offset,
  [corner.endsWith('left') ? 'left' : 'right']: MARGIN_PX,
});

export function Notifications() {
  const list = useStore(notifications);
  const stack = useRef<HTMLDivElement>(null);
  const [placement, setPlacement] = useState<Placement>({
    corner: 'bottom-left',
    offset: MARGIN_PX,
  });

  useLayoutEffect(() => {
    document.addEventListener('pointerdown', rememberPressed, true);
    document.addEventListener('keydown', rememberPressed, true);
    return () => {
      document.removeEventListener('pointerdown', rememberPressed, true);
      document.removeEventListener('keydown', rememberPressed, true);
    };
  }, []);

  // Placed before it paints, again as the page scrolls, resizes or a modal takes the focus.
  useLayoutEffect(() => {
    if (list.length === 0) return;
    const place = () => {
      const element = stack.current;
      if (!element) return;
      const box = element.getBoundingClientRect();
      const next = placeStack(
        { width: box.width, height: box.height },
        { width: window.innerWidth, height: window.innerHeight },
        keepClear(element),
        boxes(element, document.querySelectorAll(`${CONTROL}, textarea`)),
      );
      setPlacement((current) =>
        current.corner === next.corner && current.offset === next.offset ? current : next,
      );
    };
    place();
    // Once a frame at most, however fast the page scrolls.
    let frame = 0;
    const later = () => {
      if (!frame) frame = requestAnimationFrame(() => ((frame = 0), place()));
    };
    const events = ['scroll', 'resize', 'focusin'] as const;
    for (const name of events) window.addEventListener(name, later, true);
    return () => {
      cancelAnimationFrame(frame);
      for (const name of events) window.removeEventListener(name, later, true);
    };
  }, [list]);

  return (
    <div
      ref={stack}
      aria-live="polite"
      style={styleOf(placement)}
      className="pointer-events-none fixed z-50 flex w-96 max-w-[calc(100vw-2rem)] flex-col gap-2"
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
              <MarkdownContent className="prose-sm [&_a]:underline" source={notification.text} />
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
