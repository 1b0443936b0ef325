// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import { MarkdownContent } from '@/components/MarkdownContent';

afterEach(cleanup);

describe('MarkdownContent', () => {
  it('puts the alt text where an image fails to load, and drops one without any', () => {
    const { container } = render(
      <MarkdownContent
        source={
          'See ![the seal](https://images.example.org/seal.jpg) and ![](https://images.example.org/x.jpg).'
        }
      />,
    );
    const [seal, unnamed] = container.querySelectorAll('img');
    expect(seal?.getAttribute('alt')).toBe('the seal');
    seal!.dispatchEvent(new Event('error'));
    unnamed!.dispatchEvent(new Event('error'));
    expect(container.querySelector('img')).toBeNull();
    expect(container.textContent?.trim()).toBe('See the seal and .');
  });
});
