import type { CDPSession } from '@playwright/test';

type Screen = { x: number; y: number };

/** Real touch input: fingers down, moved together in steps, lifted. */
export async function touch(cdp: CDPSession, from: Screen[], to: Screen[], steps = 8) {
  const points = (t: number) =>
    from.map((start, id) => ({
      id,
      x: start.x + (to[id]!.x - start.x) * t,
      y: start.y + (to[id]!.y - start.y) * t,
    }));
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: points(0) });
  for (let step = 1; step <= steps; step += 1) {
    await cdp.send('Input.dispatchTouchEvent', {
      type: 'touchMove',
      touchPoints: points(step / steps),
    });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}
