import { useRouter } from '@tanstack/react-router';
import type { Corpus, Element } from '@/api/types';
import { NewElementModal } from '@/components/modal/NewElementModal';

/** Spec 001 §8 "Folders", before the reason. */
export const FOLDER_CREATE_ERROR = 'An error occurred while creating the folder';

export interface NewFolderModalProps {
  corpus: Corpus;
  /** The folder to create it in; none creates a top-level folder. */
  parentId?: string | null;
  onClose: () => void;
  onCreated?: (folder: Element) => void;
}

/** The New folder modal of spec 001: a name and one of the project's folder types. */
export function NewFolderModal({ corpus, parentId, onClose, onCreated }: NewFolderModalProps) {
  const router = useRouter();
  return (
    <NewElementModal
      title="New folder"
      types={corpus.types.filter((type) => type.folder)}
      creation={(fields) => ({
        corpus: corpus.id,
        ...(parentId && { parent: parentId }),
        type: fields.type,
        name: fields.name.trim(),
      })}
      notice={(folder) => {
        const location = router.buildLocation({ to: '/element/$id', params: { id: folder.id } });
        // Spec 001 §7: the notice links to the new folder.
        return {
          type: 'success',
          text: `Folder "${folder.name}" created.`,
          link: { url: router.history.createHref(location.href), text: 'Open the folder' },
        };
      }}
      errorPrefix={FOLDER_CREATE_ERROR}
      onClose={onClose}
      onCreated={onCreated}
    />
  );
}
