import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { ApiError, errorMessage } from '@/api/errors';
import { iiifUrl, imageElementsQuery } from '@/api/elements';
import type { ImageInfo } from '@/api/types';
import { PaginationBar } from '@/components/PaginationBar';
import { notify } from '@/components/notifications/store';
import { imageQuery } from './api';
import { IMAGE_DETAILS_ERROR, MEDIA_LOADING_FAILED, sourceImageUrl } from './image';

export { IMAGE_DETAILS_ERROR };
export const NO_IMAGE = 'This element is not on an image.';
export const NO_ELEMENTS = 'No elements found on this image.';
/** Spec 001 §9: the image details thumbnail is 200 pixels high. */
export const THUMBNAIL_HEIGHT = 200;
/** The listing's page size (the API's default). */
const PAGE_SIZE = 20;

const linkClass =
  'font-medium text-brand-600 underline-offset-2 hover:underline focus-visible:underline';
const cell = 'border-b border-slate-200 px-3 py-2 text-left align-top';

/** One red notification per failure, the spec's sentence first when there is one. */
function useReportOnce(error: unknown, text: string | null): void {
  const reported = useRef<unknown>(null);
  useEffect(() => {
    if (!error || reported.current === error) return;
    reported.current = error;
    const detail = errorMessage(error);
    notify({ type: 'error', text: text ? `${text} ${detail}` : detail });
  }, [error, text]);
}

export interface ImageElementsPageProps {
  imageId: string;
  page: number;
  onPageChange: (page: number) => void;
}

/** image-elements: the image's details and the elements drawn on it. */
export function ImageElementsPage({ imageId, page, onPageChange }: ImageElementsPageProps) {
  const image = useQuery(imageQuery(imageId));
  const missing = image.error instanceof ApiError && image.error.status === 404;
  useReportOnce(missing ? null : image.error, IMAGE_DETAILS_ERROR);

  return (
    <section className="mx-auto flex max-w-5xl flex-col gap-6 p-6" aria-labelledby="image-heading">
      <h1 id="image-heading" className="text-2xl font-semibold text-brand-900">
        Elements on this image
      </h1>
      {image.isPending ? (
        <p role="status" className="text-slate-600">
          Loading…
        </p>
      ) : missing ? (
        <p className="text-slate-600">{NO_IMAGE}</p>
      ) : image.isError ? (
        <p role="alert" className="text-red-700">
          {IMAGE_DETAILS_ERROR}
        </p>
      ) : (
        <>
          <ImageDetails image={image.data} />
          <ImageElementList imageId={imageId} page={page} onPageChange={onPageChange} />
        </>
      )}
    </section>
  );
}

function ImageDetails({ image }: { image: ImageInfo }) {
  const [failed, setFailed] = useState(false);
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full text-sm" aria-label="Image details">
        <thead className="bg-slate-50 text-slate-700">
          <tr>
            <th scope="col" className={cell}>
              ID
            </th>
            <th scope="col" className={cell}>
              Status
            </th>
            <th scope="col" className={cell}>
              Width
            </th>
            <th scope="col" className={cell}>
              Height
            </th>
            <th scope="col" className={cell}>
              Image
            </th>
            <th scope="col" className={cell}>
              Thumbnail
            </th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td className={`${cell} font-mono`}>{image.id}</td>
            <td className={cell}>{image.status}</td>
            <td className={cell}>{image.width}</td>
            <td className={cell}>{image.height}</td>
            <td className={cell}>
              <a
                href={sourceImageUrl(image)}
                target="_blank"
                rel="noopener noreferrer"
                className={linkClass}
              >
                Full IIIF image
              </a>
            </td>
            <td className={cell}>
              {failed ? (
                <span className="text-slate-500">{MEDIA_LOADING_FAILED}</span>
              ) : (
                <img
                  src={iiifUrl(image.url, 'full', `,${THUMBNAIL_HEIGHT}`)}
                  alt={`Thumbnail of image ${image.id}`}
                  height={THUMBNAIL_HEIGHT}
                  loading="lazy"
                  className="h-[200px] w-auto max-w-none rounded border border-slate-200"
                  onError={() => setFailed(true)}
                />
              )}
            </td>
          </tr>
        </tbody>
      </table>
    </div>
  );
}

function ImageElementList({ imageId, page, onPageChange }: ImageElementsPageProps) {
  const elements = useQuery(imageElementsQuery(imageId, page));
  useReportOnce(elements.error, null);

  if (elements.isPending) {
    return (
      <p role="status" className="text-slate-600">
        Loading…
      </p>
    );
  }
  if (elements.isError) {
    return <p className="text-slate-600">The elements on this image could not be loaded.</p>;
  }
  const { count, results } = elements.data;
  if (results.length === 0) return <p className="text-slate-600">{NO_ELEMENTS}</p>;
  return (
    <div className="flex flex-col gap-3">
      <table className="min-w-full text-sm" aria-label="Elements on this image">
        <thead className="bg-slate-50 text-slate-700">
          <tr>
            <th scope="col" className={cell}>
              Name
            </th>
            <th scope="col" className={cell}>
              Type
            </th>
            <th scope="col" className={cell}>
              ID
            </th>
          </tr>
        </thead>
        <tbody>
          {results.map((element) => (
            <tr key={element.id}>
              <td className={cell}>
                <Link to="/element/$id" params={{ id: element.id }} className={linkClass}>
                  {element.name}
                </Link>
              </td>
              <td className={cell}>{element.type}</td>
              <td className={`${cell} font-mono text-slate-600`}>{element.id}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <PaginationBar
        count={count}
        page={page}
        pageSize={PAGE_SIZE}
        singular="element"
        onPageChange={onPageChange}
      />
    </div>
  );
}
