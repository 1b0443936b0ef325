import { marked } from 'marked';
import DOMPurify from 'dompurify';
import { replaceImage } from './imageStandIn';

/**
 * Image sources a browser can draw from the text alone. Sanitising strips a `javascript:` one,
 * and a relative one points into the app itself: either way the reader would get the browser's
 * broken-image icon.
 */
const LOADABLE_IMAGE = /^(https?:\/\/|data:image\/)/i;

/** Markdown to HTML that is safe to inject: scripts, handlers and odd URLs are stripped. */
export function renderMarkdown(source: string): string {
  const html = marked.parse(source, { async: false, gfm: true, breaks: true });
  const fragment = DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'iframe', 'object', 'embed'],
    FORBID_ATTR: ['style'],
    RETURN_DOM_FRAGMENT: true,
  });
  for (const image of fragment.querySelectorAll('img')) {
    if (!LOADABLE_IMAGE.test(image.getAttribute('src')?.trim() ?? '')) replaceImage(image);
  }
  const container = document.createElement('div');
  container.append(fragment);
  return container.innerHTML;
}
