import { useCallback, useLayoutEffect, useRef } from 'react';

/** How close to the bottom (px) still counts as "at the bottom". */
const SLACK = 16;

/**
 * Keeps a scrolling box at its bottom as `content` grows, like `tail -f`, unless the user has
 * scrolled up to read: then it stays where they are until they scroll back down.
 */
export function useFollowBottom<T extends HTMLElement>(content: unknown) {
  const ref = useRef<T | null>(null);
  const following = useRef(true);

  const onScroll = useCallback(() => {
    const box = ref.current;
    if (!box) return;
    following.current = box.scrollHeight - box.scrollTop - box.clientHeight <= SLACK;
  }, []);

  useLayoutEffect(() => {
    const box = ref.current;
    if (box && following.current) box.scrollTop = box.scrollHeight;
  }, [content]);

  return { ref, onScroll };
}
