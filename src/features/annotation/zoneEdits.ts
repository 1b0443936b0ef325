/**
 * The annotation tools' edits of zones, each through the outbox (applied here at once, sent when
 * the network allows) and each recorded as an undoable step.
 */
import type { ImageInfo, Polygon } from '@/api/types';
import { offlineRuntime } from '@/offline/runtime';
import { isTempId } from '@/offline/outboxEntry';
import * as writes from '@/offline/elementWrites';
import type { Point } from '@/lib/polygon';
import { annotationHistory, type ElementRef } from './history';

export interface NewZone {
  corpus: string;
  parent: string;
  image: ImageInfo;
  type: string;
  name: string;
  polygon: Point[];
}

/** The element's id now: a creation that reached the server gave it the server's id. */
async function current(ref: ElementRef): Promise<string> {
  if (isTempId(ref.id)) {
    const mapped = await offlineRuntime.db.idMap.get(ref.id);
    if (mapped) annotationHistory.rename(ref, mapped.serverId);
  }
  return ref.id;
}

async function create(zone: NewZone): Promise<string> {
  const polygon = zone.polygon as Polygon;
  const created = await writes.createElement({
    corpus: zone.corpus,
    parent: zone.parent,
    type: zone.type,
    name: zone.name,
    image: zone.image.id,
    polygon,
    // Shown on the image at once, before the server gives the zone its own id and crop URL.
    zone: { id: '', polygon, image: zone.image, url: '' },
  });
  return created.id;
}

export async function createZone(zone: NewZone): Promise<string> {
  const id = await create(zone);
  const ref = annotationHistory.ref(id);
  annotationHistory.push({
    label: `create “${zone.name}”`,
    undo: async () => {
      await writes.deleteElement(await current(ref), true);
    },
    redo: async () => annotationHistory.rename(ref, await create(zone)),
  });
  return id;
}

export async function reshapeZone(id: string, polygon: Point[], previous: Point[]): Promise<void> {
  const ref = annotationHistory.ref(id);
  await writes.updateElement(await current(ref), { polygon: polygon as Polygon });
  annotationHistory.push({
    label: 'reshape',
    undo: async () => {
      await writes.updateElement(await current(ref), { polygon: previous as Polygon });
    },
    redo: async () => {
      await writes.updateElement(await current(ref), { polygon: polygon as Polygon });
    },
  });
}

export async function retypeZone(id: string, type: string, previous: string): Promise<void> {
  const ref = annotationHistory.ref(id);
  await writes.updateElement(await current(ref), { type });
  annotationHistory.push({
    label: 'type change',
    undo: async () => {
      await writes.updateElement(await current(ref), { type: previous });
    },
    redo: async () => {
      await writes.updateElement(await current(ref), { type });
    },
  });
}

/** Deletes a zone; undoing creates it again as it was (a new element, with a new id). */
export async function deleteZone(id: string, zone: NewZone): Promise<void> {
  const ref = annotationHistory.ref(id);
  await writes.deleteElement(await current(ref), true);
  annotationHistory.push({
    label: `delete “${zone.name}”`,
    undo: async () => annotationHistory.rename(ref, await create(zone)),
    redo: async () => {
      await writes.deleteElement(await current(ref), true);
    },
  });
}
