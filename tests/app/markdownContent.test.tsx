// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { MarkdownContent } from '@/components/MarkdownContent';

afterEach(cleanup);

describe('MarkdownContent', () => {
  it('shows the text as written until the renderer has loaded, then rendered', async () => {
    const { container } = render(<MarkdownContent source={'A **bold** claim'} />);
    expect(container.textContent).toBe('A **bold** claim');
    expect((await screen.findByText('bold')).tagName).toBe('STRONG');
    expect(container.textContent?.trim()).toBe('A bold claim');
  });

  it('puts the alt text where an image fails to load, and drops one without any', async () => {
    const { container } = render(
      <MarkdownContent
        source={
          'See ![the seal](https://images.example.org/seal.jpg) and ![](https://images.example.org/x.jpg).'
        }
      />,
    );
    await waitFor(() => expect(container.querySelectorAll('img')).toHaveLength(2));
    const [seal, unnamed] = container.querySelectorAll('img');
    expect(seal?.getAttribute('alt')).toBe('the seal');
    seal!.dispatchEvent(new Event('error'));
    unnamed!.dispatchEvent(new Event('error'));
    expect(container.querySelector('img')).toBeNull();
    expect(container.textContent?.trim()).toBe('See the seal and .');
  });
});
