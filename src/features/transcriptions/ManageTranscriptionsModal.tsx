/**
 * Manual transcription management (spec 001 §2 "Modals"): the element's image cropped with a
 * margin, its transcriptions grouped into manual ones and those of each worker run, and a form
 * to add one. Large when the zone is wider than 500; the crop keeps within 75vh for portrait
 * images, 50vh and 75vw for landscape ones.
 */
import type { ReactNode } from 'react';
import type { Element, TextOrientation, Transcription } from '@/api/types';
import { Modal } from '@/components/modal/Modal';
import { bbox } from '@/lib/geometry';
import { TranscriptionForm } from './TranscriptionForm';
import { isRightToLeft } from './orientation';
import { CloseAction } from '@/components/modal/ModalActions';

/** Spec 001 §9: image margin in zoomed crops, in image units. */
export const CROP_MARGIN = 25;
/** Spec 001 §9: above this zone width the modal is large. */
export const LARGE_ZONE_WIDTH = 500;

/** The IIIF crop of the zone with its margin, kept inside the image. */
export function croppedImageUrl(element: Element): string | null {
  const zone = element.zone;
  if (!zone) return null;
  const box = bbox(zone.polygon);
  const x = Math.max(0, Math.floor(box.minX - CROP_MARGIN));
  const y = Math.max(0, Math.floor(box.minY - CROP_MARGIN));
  const right = Math.min(zone.image.width, Math.ceil(box.maxX + CROP_MARGIN));
  const bottom = Math.min(zone.image.height, Math.ceil(box.maxY + CROP_MARGIN));
  return `${zone.image.url}/${x},${y},${right - x},${bottom - y}/full/0/default.jpg`;
}

export function groupByRun(items: readonly Transcription[]) {
  const manual = items.filter((item) => !item.worker_run);
  const runs = new Map<string, { summary: string; items: Transcription[] }>();
  for (const item of items) {
    if (!item.worker_run) continue;
    const group = runs.get(item.worker_run.id) ?? { summary: item.worker_run.summary, items: [] };
    group.items.push(item);
    runs.set(item.worker_run.id, group);
  }
  return { manual, runs: [...runs.values()] };
}

export function ManageTranscriptionsModal({
  element,
  transcriptions,
  onCreate,
  onClose,
}: {
  element: Element;
  transcriptions: readonly Transcription[];
  onCreate: (text: string, orientation: TextOrientation) => Promise<void>;
  onClose: () => void;
}) {
  const crop = croppedImageUrl(element);
  const box = element.zone ? bbox(element.zone.polygon) : null;
  const width = box ? box.maxX - box.minX : 0;
  const height = box ? box.maxY - box.minY : 0;
  const portrait = height > width;
  const { manual, runs } = groupByRun(transcriptions);
  return (
    <Modal
      title="Manage transcriptions"
      size={width > LARGE_ZONE_WIDTH ? 'lg' : 'md'}
      onClose={onClose}
      footer={<CloseAction onClose={onClose} />}
    >
      {crop && (
        <img
          src={crop}
          alt={`Image of ${element.name}`}
          // Within the modal too, whose width is below 75vw on most screens.
          className={`mx-auto object-contain ${portrait ? 'max-h-[75vh] max-w-full' : 'max-h-[50vh] max-w-[min(100%,75vw)]'}`}
        />
      )}
      <Group title="Manual">
        {manual.length ? manual.map((item) => <Text key={item.id} item={item} />) : <Empty />}
      </Group>
      {runs.map((run) => (
        <Group key={run.summary} title={run.summary}>
          {run.items.map((item) => (
            <Text key={item.id} item={item} />
          ))}
        </Group>
      ))}
      <Group title="New transcription">
        <TranscriptionForm
          initial={{ text: '', orientation: 'horizontal-lr' }}
          submitLabel="Create"
          resetOnSubmit
          onSubmit={onCreate}
        />
      </Group>
    </Modal>
  );
}

function Group({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="flex flex-col gap-1">
      <h3 className="font-semibold text-slate-900">{title}</h3>
      {children}
    </section>
  );
}

function Text({ item }: { item: Transcription }) {
  return (
    <p
      dir={isRightToLeft(item.orientation) ? 'rtl' : 'ltr'}
      className="rounded border border-slate-200 p-2 font-transcription whitespace-pre-wrap"
    >
      {item.text}
    </p>
  );
}

function Empty() {
  return <p className="text-slate-500">No transcription</p>;
}
