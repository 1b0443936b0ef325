/**
 * The datasets of the element page's header menu, given to it by its route (a feature does not
 * reach into another): the project's datasets, the create modal, "Add to dataset" for the
 * element and "Populate a dataset" from a folder.
 */
import type { Corpus, Element } from '@/api/types';
import { AddToDatasetModal } from './addTo/AddToDatasetModal';
import { PopulateModal } from './populate/PopulateModal';
import { CreateDatasetModal, DatasetMenuEntries } from './DatasetsMenuSection';

export const elementMenuDatasets = {
  renderList: (props: { corpusId: string; itemClass: string }) => <DatasetMenuEntries {...props} />,
  renderCreate: (props: { corpusId: string; canAdmin: boolean; onClose: () => void }) => (
    <CreateDatasetModal {...props} />
  ),
  renderAddTo: ({ element, onClose }: { element: Element; onClose: () => void }) => (
    <AddToDatasetModal
      corpusId={element.corpus.id}
      target={{
        kind: 'element',
        element: { id: element.id, name: element.name, type: element.type },
      }}
      onClose={onClose}
    />
  ),
  renderPopulate: ({
    corpus,
    element,
    onClose,
  }: {
    corpus: Corpus;
    element: Element;
    onClose: () => void;
  }) => <PopulateModal corpus={corpus} parentId={element.id} filters={{}} onClose={onClose} />,
};
