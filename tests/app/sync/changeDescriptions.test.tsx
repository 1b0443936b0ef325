// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { waitFor } from '@testing-library/react';
import type { ElementClassification, ElementMetadataItem, Transcription } from '@/api/types';
import { localDb } from '@/offline/db';
import {
  createElement,
  deleteElement,
  linkElement,
  moveElement,
  updateElement,
} from '@/offline/elementEdits';
import {
  createClassification,
  createMetadata,
  createTranscription,
  deleteMetadata,
  deleteTranscription,
  moderateClassification,
  updateMetadata,
  updateTranscription,
} from '@/offline/entityEdits';
import {
  changeList,
  corpus,
  isolateSyncTests,
  makeElement,
  openPendingChanges,
  seedElement,
  stubApi,
  uuid,
} from './harness';

isolateSyncTests();

const square = (x: number): [number, number][] => [
  [x, 10],
  [x + 50, 10],
  [x + 50, 60],
  [x, 60],
];

const WORKER = { id: uuid(), summary: 'Worker Classifier @ 1' };
const charter = { id: uuid(), name: 'Charter' };
const deed = { id: uuid(), name: 'Deed' };

function classification(mlClass: { id: string; name: string }): ElementClassification {
  return {
    id: uuid(),
    ml_class: mlClass,
    state: 'pending',
    confidence: 0.7,
    high_confidence: false,
    worker_run: WORKER,
  };
}

async function seedRecord(
  table: 'transcriptions' | 'metadata',
  ownerId: string,
  data: Transcription | ElementMetadataItem,
): Promise<void> {
  await localDb[table].put({ id: data.id, ownerId, data, savedAt: Date.now() });
}

describe('Pending changes descriptions', () => {
  it('say of every kind of edit what happens, to which element, by its name and type', async () => {
    const page = makeElement({
      name: 'Folio 12',
      classifications: [classification(charter), classification(deed)],
    });
    const zone = makeElement({ name: '4', type: 'act' });
    const gone = makeElement({ name: '6', type: 'act' });
    const box = makeElement({ name: 'Box 1', type: 'folder' });
    const other = makeElement({ name: 'Box 2', type: 'folder' });
    for (const element of [page, zone, gone, box, other]) await seedElement(element);
    const reading: Transcription = {
      id: uuid(),
      text: 'Mannheim.',
      orientation: 'horizontal-lr',
      confidence: null,
      worker_run: null,
      entity_count: 0,
    };
    const wrong = { ...reading, id: uuid(), text: 'Manheim' };
    const folio: ElementMetadataItem = {
      id: uuid(),
      type: 'text',
      name: 'Folio',
      value: '12r',
      dates: [],
      worker_run: null,
    };
    const shelfmark = { ...folio, id: uuid(), name: 'Shelfmark', value: 'MS 660' };
    await seedRecord('transcriptions', page.id, reading);
    await seedRecord('transcriptions', page.id, wrong);
    await seedRecord('metadata', page.id, folio);
    await seedRecord('metadata', page.id, shelfmark);
    stubApi();

    const ref = { id: page.id, corpusId: corpus.id };
    await createElement(localDb, {
      corpus: corpus.id,
      parent: page.id,
      type: 'act',
      name: '5',
      polygon: square(100),
    });
    await updateElement(localDb, zone.id, { polygon: square(200) });
    await updateElement(localDb, box.id, { name: 'Box 1, sorted' });
    await updateElement(localDb, page.id, { rotation_angle: 90, mirrored: true });
    await updateElement(localDb, other.id, { type: 'page' });
    await moveElement(localDb, zone.id, box.id);
    await linkElement(localDb, zone.id, other.id);
    await deleteElement(localDb, gone.id);
    await createTranscription(localDb, ref, 'Verlag von Heinrich Hoff.', 'horizontal-lr');
    await updateTranscription(localDb, reading.id, corpus.id, { text: 'MANNHEIM.' });
    await deleteTranscription(localDb, wrong.id, corpus.id);
    await createClassification(localDb, ref, { id: uuid(), name: 'Title page' });
    await moderateClassification(localDb, ref, page.classifications[0]!.id, 'validate');
    await moderateClassification(localDb, ref, page.classifications[1]!.id, 'reject');
    await createMetadata(localDb, ref, { type: 'text', name: 'Printer', value: 'Hoff' });
    await updateMetadata(localDb, folio.id, corpus.id, { value: '12v' });
    await deleteMetadata(localDb, shelfmark.id, corpus.id);

    openPendingChanges();
    const list = await changeList();
    await waitFor(() =>
      expect(
        list.getAllByRole('listitem').map((item) => item.querySelector('p')!.textContent),
      ).toEqual([
        '“5” (Act): created in “Folio 12”',
        '“4” (Act): zone reshaped',
        '“Box 1” (Folder): renamed to “Box 1, sorted”',
        '“Folio 12” (Page): rotated to 90°, mirrored',
        '“Box 2” (Folder): type changed to Page',
        '“4” (Act): moved to “Box 1, sorted”',
        '“4” (Act): linked to “Box 2”',
        '“6” (Act): deleted',
        '“Folio 12” (Page): transcription added: “Verlag von Heinrich Hoff.”',
        '“Folio 12” (Page): transcription changed to “MANNHEIM.”',
        '“Folio 12” (Page): transcription “Manheim” deleted',
        '“Folio 12” (Page): classified as Title page',
        '“Folio 12” (Page): classification Charter validated',
        '“Folio 12” (Page): classification Deed rejected',
        '“Folio 12” (Page): metadata Printer added: “Hoff”',
        '“Folio 12” (Page): metadata Folio changed to “12v”',
        '“Folio 12” (Page): metadata Shelfmark deleted',
      ]),
    );
  });
});
