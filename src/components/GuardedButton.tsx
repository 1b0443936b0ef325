import type { ButtonHTMLAttributes } from 'react';

export interface GuardedButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  /** Why the action is not allowed; null when it is. */
  blocked: string | null;
}

/**
 * A button that stays focusable and shows why it is unavailable: a `disabled` button gets no
 * hover tooltip in several browsers and is skipped by the keyboard, so the reason would be lost.
 */
export function GuardedButton({ blocked, onClick, title, ...props }: GuardedButtonProps) {
  return (
    <button
      type="button"
      {...props}
      aria-disabled={blocked ? true : undefined}
      title={blocked ?? title}
      onClick={(event) => {
        // A blocked submit button must not send its form either.
        if (blocked) event.preventDefault();
        else onClick?.(event);
      }}
    />
  );
}
