import { useCallback, useEffect, useMemo, useState } from 'react';
import { replaceImage } from '@/lib/imageStandIn';

type Renderer = (source: string) => string;

/**
 * marked and DOMPurify weigh more than a tenth of the app's eager JavaScript, for text most
 * pages never show: they load the first time Markdown is on screen, and are kept from then on.
 */
let renderer: Renderer | null = null;
let loading: Promise<Renderer> | null = null;

function loadRenderer(): Promise<Renderer> {
  loading ??= import('@/lib/markdown').then((module) => (renderer = module.renderMarkdown));
  return loading;
}

/** The sanitised HTML of `source`, or null while the renderer loads (once per session). */
function useRenderedMarkdown(source: string): string | null {
  const [loaded, setLoaded] = useState<Renderer | null>(() => renderer);
  useEffect(() => {
    if (loaded) return;
    let live = true;
    void loadRenderer().then((render) => {
      if (live) setLoaded(() => render);
    });
    return () => {
      live = false;
    };
  }, [loaded]);
  return useMemo(() => (loaded ? loaded(source) : null), [loaded, source]);
}

/**
 * Markdown written by people (a metadata value, a notification, the site's banner), sanitised.
 * Until the renderer has loaded, the text shows as it was written rather than nothing, so the
 * page does not shift when it comes. An image that fails to load (gone, or out of reach
 * offline) gives way to its alt text instead of a broken-image icon.
 */
export function MarkdownContent({ source, className }: { source: string; className?: string }) {
  const html = useRenderedMarkdown(source);
  // Load errors do not bubble: listened to on the way down.
  const container = useCallback((node: HTMLDivElement | null) => {
    if (!node) return;
    const onError = (event: Event) => {
      if (event.target instanceof HTMLImageElement) replaceImage(event.target);
    };
    node.addEventListener('error', onError, true);
    return () => node.removeEventListener('error', onError, true);
  }, []);
  if (html === null) {
    return (
      <div className={className}>
        <p className="whitespace-pre-wrap">{source}</p>
      </div>
    );
  }
  return <div ref={container} className={className} dangerouslySetInnerHTML={{ __html: html }} />;
}
