import { IMAGE_DETAILS_ERROR, MEDIA_LOADING_FAILED, imageOpenFailure } from './image';

export interface ViewerNoticesProps {
  /** Why the image could not be opened, as the viewer said it; null while it is not failing. */
  openError: string | null;
  /** Some tiles failed to load. */
  tileError: boolean;
  /** The size the image server reports differs from the image's. */
  mismatch: string | null;
}

const strip =
  'pointer-events-auto rounded border border-amber-400 bg-amber-50 px-3 py-2 text-sm text-amber-950 shadow';

/**
 * What went wrong with the image, over the viewer where the image should be, on light cards the
 * dark viewer cannot swallow: an image that cannot be opened in the middle, lesser troubles
 * (tiles missing, a size mismatch) along the bottom edge, leaving the image usable.
 */
export function ViewerNotices({ openError, tileError, mismatch }: ViewerNoticesProps) {
  return (
    <>
      {openError !== null && (
        <div className="pointer-events-none absolute inset-0 z-20 flex items-center justify-center p-4">
          <div
            role="alert"
            className="pointer-events-auto max-w-md rounded-lg border border-red-300 bg-white px-4 py-3 text-sm text-red-900 shadow-lg"
          >
            <p className="font-semibold">{MEDIA_LOADING_FAILED}</p>
            <p className="mt-1">{IMAGE_DETAILS_ERROR}</p>
            <p className="mt-1 break-words text-slate-700">{imageOpenFailure(openError)}</p>
          </div>
        </div>
      )}
      {(tileError || mismatch) && (
        <div className="pointer-events-none absolute inset-x-2 bottom-2 z-20 flex flex-col gap-2">
          {tileError && (
            <p role="alert" className={strip}>
              <strong>{MEDIA_LOADING_FAILED}</strong> —{' '}
              <span>Some parts of the image could not be loaded from the image server.</span>
            </p>
          )}
          {mismatch && (
            <p role="alert" className={strip}>
              {mismatch}
            </p>
          )}
        </div>
      )}
    </>
  );
}
