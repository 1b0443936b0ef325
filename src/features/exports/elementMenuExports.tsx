/**
 * The exports of the element page's header menu, given to it by its route (a feature does not
 * reach into another): the project's exports, and the element written to a document.
 */
import type { Corpus, Element } from '@/api/types';
import { ExportProcessModal } from './ExportProcessModal';
import { ProjectExportsModal } from './ProjectExportsModal';

export const elementMenuExports = {
  renderProjectExports: (props: { corpus: Corpus; onClose: () => void }) => (
    <ProjectExportsModal {...props} />
  ),
  renderExportProcess: ({
    corpus,
    element,
    onClose,
  }: {
    corpus: Corpus;
    element: Element;
    onClose: () => void;
  }) => (
    <ExportProcessModal
      corpusId={corpus.id}
      corpusName={corpus.name}
      element={{ id: element.id, name: element.name }}
      onClose={onClose}
    />
  ),
};
