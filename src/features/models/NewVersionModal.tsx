import { useId, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '@/api/errors';
import { createModelVersion, modelKeys, uploadModelArchive, type ModelVersion } from '@/api/models';
import { OfflineNote, useNeedsNetwork } from '@/components/NeedsNetwork';
import { ProgressBar } from '@/components/ProgressBar';
import { ErrorList } from '@/components/modal/ErrorList';
import { Modal } from '@/components/modal/Modal';
import { SubmitActions } from '@/components/modal/ModalActions';
import { notify } from '@/components/notifications/store';
import { ui } from '@/components/styles';
import { formatSize } from '@/lib/formatSize';

/**
 * "New version": the version is created on the server, then its archive is sent to it; the
 * server keeps it only once whole, so a cut-off upload leaves the version in error, never
 * available with half an archive.
 */
export function NewVersionModal({ modelId, onClose }: { modelId: string; onClose: () => void }) {
  const id = useId();
  const [tag, setTag] = useState('');
  const [description, setDescription] = useState('');
  const [archive, setArchive] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const queryClient = useQueryClient();
  const offline = useNeedsNetwork();
  const publish = useMutation({
    mutationFn: async (): Promise<ModelVersion> => {
      const version = await createModelVersion(modelId, {
        ...(tag.trim() ? { tag: tag.trim() } : {}),
        ...(description ? { description } : {}),
      });
      setProgress(0);
      return uploadModelArchive(version, archive!, (loaded, total) =>
        setProgress(total ? loaded / total : null),
      );
    },
    onSuccess: (version) => {
      notify({
        type: 'success',
        text: `Version ${version.tag ?? version.id.slice(0, 8)} is available.`,
      });
      onClose();
    },
    // A version was made even when its upload failed: the list shows it, in error.
    onSettled: () => queryClient.invalidateQueries({ queryKey: modelKeys.all }),
  });
  const blocked = offline ?? (archive ? null : 'Choose the archive to upload');

  return (
    <Modal
      title="New version"
      onClose={onClose}
      pending={publish.isPending}
      onSubmit={() => !blocked && publish.mutate()}
      footer={
        <SubmitActions
          label="Upload"
          pending={publish.isPending}
          onCancel={onClose}
          blocked={blocked}
        />
      }
    >
      <OfflineNote action="upload a model version" />
      <div>
        <label htmlFor={`${id}-tag`} className={ui.label}>
          Tag
        </label>
        <input
          id={`${id}-tag`}
          type="text"
          value={tag}
          maxLength={50}
          autoComplete="off"
          onChange={(event) => setTag(event.target.value)}
          className={ui.input}
        />
      </div>
      <div>
        <label htmlFor={`${id}-description`} className={ui.label}>
          Description
        </label>
        <textarea
          id={`${id}-description`}
          rows={3}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          className={ui.input}
        />
      </div>
      <div>
        <label htmlFor={`${id}-archive`} className={ui.label}>
          Archive
        </label>
        <input
          id={`${id}-archive`}
          type="file"
          onChange={(event) => setArchive(event.target.files?.[0] ?? null)}
          className="mt-1 block w-full text-sm"
        />
        {archive && <p className={ui.help}>{formatSize(archive.size)}</p>}
      </div>
      {publish.isPending && progress !== null && (
        <ProgressBar label="Upload progress" value={progress} />
      )}
      <ErrorList messages={publish.error ? [errorMessage(publish.error)] : []} />
    </Modal>
  );
}
