import { useCallback, useMemo } from 'react';
import { renderMarkdown, replaceImage } from '@/lib/markdown';

/**
 * Markdown written by people (a metadata value), sanitised. An image that fails to load (gone,
 * or out of reach offline) gives way to its alt text instead of a broken-image icon.
 */
export function MarkdownContent({ source, className }: { source: string; className?: string }) {
  const html = useMemo(() => ({ __html: renderMarkdown(source) }), [source]);
  // Load errors do not bubble: listened to on the way down.
  const container = useCallback((node: HTMLDivElement | null) => {
    if (!node) return;
    const onError = (event: Event) => {
      if (event.target instanceof HTMLImageElement) replaceImage(event.target);
    };
    node.addEventListener('error', onError, true);
    return () => node.removeEventListener('error', onError, true);
  }, []);
  return <div ref={container} className={className} dangerouslySetInnerHTML={html} />;
}
