// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '@/lib/markdown';

function toDom(html: string): HTMLElement {
  const container = document.createElement('div');
  container.innerHTML = html;
  return container;
}

describe('renderMarkdown', () => {
  it('renders emphasis, links and line breaks', () => {
    const dom = toDom(renderMarkdown('**Done**: see [the docs](https://example.org/x)\nnext line'));
    expect(dom.querySelector('strong')?.textContent).toBe('Done');
    expect(dom.querySelector('a')?.getAttribute('href')).toBe('https://example.org/x');
    expect(dom.querySelector('br')).not.toBeNull();
  });

  it('drops scripts and event handlers', () => {
    const dom = toDom(
      renderMarkdown('Hi <img src=x onerror="alert(1)"> <script>alert(2)</script> there'),
    );
    expect(dom.querySelector('script')).toBeNull();
    const img = dom.querySelector('img');
    expect(img?.getAttribute('onerror') ?? null).toBeNull();
    expect(dom.innerHTML).not.toContain('alert(2)');
    expect(dom.textContent).toContain('Hi');
  });

  it('drops javascript: links and forms', () => {
    const dom = toDom(renderMarkdown('[click](javascript:alert(1)) <form><input></form>'));
    expect(dom.querySelector('a')?.getAttribute('href') ?? null).toBeNull();
    expect(dom.querySelector('form, input')).toBeNull();
  });

  it('shows an image whose source was stripped or points nowhere as its alt text, not a broken image', () => {
    const dom = toDom(
      renderMarkdown(
        'Seal: ![wax seal](javascript:alert(1)) stamp: ![red stamp](stamp.png) <img src=x onerror="alert(1)"> end',
      ),
    );
    expect(dom.querySelector('img')).toBeNull();
    expect(dom.textContent?.trim()).toBe('Seal: wax seal stamp: red stamp  end');
  });

  it('keeps images that have a web address', () => {
    const dom = toDom(
      renderMarkdown('![Folio 3](https://iiif.example.org/f3/full/200,/0/default.jpg)'),
    );
    const img = dom.querySelector('img');
    expect(img?.getAttribute('src')).toBe('https://iiif.example.org/f3/full/200,/0/default.jpg');
    expect(img?.getAttribute('alt')).toBe('Folio 3');
  });
});
