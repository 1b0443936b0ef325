/**
 * The details panel on screens too narrow to put it beside the image (a portrait tablet): a
 * sheet along the bottom of the screen that opens over the page and scrolls on its own, so
 * reading the details never pushes the image and its tools off screen. On wider screens it
 * leaves the panel where the page puts it. It shows only while the panel does (annotation mode
 * takes the panel's place on an image).
 */
import type { ReactNode } from 'react';
import { createStore, useStore } from '@/lib/store';

/** Open or closed from one element to the next, as the user left it. */
const sheetOpen = createStore(false);

export function DetailsSheet({ children }: { children: ReactNode }) {
  const open = useStore(sheetOpen);
  return (
    <div
      data-keep-clear
      className="max-lg:fixed max-lg:inset-x-0 max-lg:bottom-0 max-lg:z-20 max-lg:flex max-lg:max-h-[45dvh] max-lg:flex-col max-lg:rounded-t-xl max-lg:border-t max-lg:border-slate-300 max-lg:bg-white max-lg:shadow-[0_-4px_16px_rgb(15_23_42/0.15)] lg:contents [&:not(:has(aside))]:hidden"
    >
      <button
        type="button"
        aria-expanded={open}
        onClick={() => sheetOpen.set(!open)}
        className="flex min-h-11 items-center justify-center gap-2 text-sm font-medium text-slate-700 lg:hidden"
      >
        <span aria-hidden="true" className="h-1 w-10 rounded-full bg-slate-300" />
        {open ? 'Hide details' : 'Show details'}
      </button>
      <div
        className={`max-lg:min-h-0 max-lg:overflow-y-auto max-lg:px-3 max-lg:pb-3 lg:contents ${open ? '' : 'max-lg:hidden'}`}
      >
        {children}
      </div>
    </div>
  );
}
