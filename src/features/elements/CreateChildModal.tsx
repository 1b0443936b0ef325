import type { ElementCreate } from '@/api/elements';
import type { Corpus, Element } from '@/api/types';
import { NewElementModal } from '@/components/modal/NewElementModal';
import type { ElementFields } from '@/lib/elementForm';

/** Spec 001 §8 "Elements", word for word. */
export const ELEMENT_CREATED = 'Element created.';
export const CREATE_ERROR = 'An error occurred during element creation';

export interface CreateChildModalProps {
  parent: Element;
  corpus: Corpus;
  onClose: () => void;
  onCreated: (child: Element) => void;
}

/** What the API is asked to create: on the parent's image zone when it has one. */
export function childCreation(parent: Element, fields: ElementFields): ElementCreate {
  return {
    corpus: parent.corpus.id,
    parent: parent.id,
    name: fields.name.trim(),
    type: fields.type,
    ...(parent.zone && { image: parent.zone.image.id, polygon: parent.zone.polygon }),
  };
}

/** The Create sub-element modal of spec 001: a child of any type under the current element. */
export function CreateChildModal({ parent, corpus, onClose, onCreated }: CreateChildModalProps) {
  return (
    <NewElementModal
      title="Create sub-element"
      types={corpus.types}
      creation={(fields) => childCreation(parent, fields)}
      notice={() => ({ type: 'success', text: ELEMENT_CREATED })}
      errorPrefix={CREATE_ERROR}
      onClose={onClose}
      onCreated={onCreated}
    >
      <p>
        The new element is created inside{' '}
        <strong className="font-semibold text-slate-900">{parent.name}</strong>
        {parent.zone
          ? ', on the same zone of its image.'
          : '. It has no image, as this element has none.'}
      </p>
    </NewElementModal>
  );
}
