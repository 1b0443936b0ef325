import { useNavigate } from '@tanstack/react-router';
import type { Corpus, Element } from '@/api/types';
import { NewFolderModal } from '@/components/folders/NewFolderModal';
import { CreateChildModal } from './CreateChildModal';
import { DeleteElementModal } from './DeleteElementModal';
import { EditElementModal } from './EditElementModal';
import { LinkElementModal, MoveElementModal } from './ParentChangeModals';

export type ElementModalName = 'edit' | 'delete' | 'folder' | 'child' | 'move' | 'link';

export interface ElementModalsProps {
  shown: ElementModalName | null;
  onShow: (name: ElementModalName | null) => void;
  element: Element;
  corpus: Corpus;
  /** Where to go once the element is deleted; the project when it has no parent. */
  parentId: string | null;
  deleteBlocked: string | null;
  /** The element's children or parents changed: views that page on their own start over. */
  onChanged: () => void;
}

/** The modals the element page opens from its header menu, one at a time. */
export function ElementModals({
  shown,
  onShow,
  element,
  corpus,
  parentId,
  deleteBlocked,
  onChanged,
}: ElementModalsProps) {
  const navigate = useNavigate();
  const close = () => onShow(null);
  const leave = async () => {
    if (parentId) await navigate({ to: '/element/$id', params: { id: parentId } });
    else await navigate({ to: '/browse/$corpusId', params: { corpusId: corpus.id } });
  };
  switch (shown) {
    case 'edit':
      return (
        <EditElementModal
          element={element}
          corpus={corpus}
          deleteBlocked={deleteBlocked}
          onDelete={() => onShow('delete')}
          onClose={close}
        />
      );
    case 'delete':
      return <DeleteElementModal element={element} onClose={close} onDeleted={leave} />;
    case 'folder':
      return (
        <NewFolderModal
          corpus={corpus}
          parentId={element.id}
          onClose={close}
          onCreated={onChanged}
        />
      );
    case 'child':
      return (
        <CreateChildModal parent={element} corpus={corpus} onClose={close} onCreated={onChanged} />
      );
    case 'move':
      return <MoveElementModal element={element} onClose={close} onChanged={onChanged} />;
    case 'link':
      return <LinkElementModal element={element} onClose={close} onChanged={onChanged} />;
    default:
      return null;
  }
}
