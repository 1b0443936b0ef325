/**
 * "Create a worker": name, a slug suggested from it (until the author edits it), a type picked
 * from the site's types or typed as a new slug, description and repository. The server answers
 * an existing slug with that worker instead of a new one, so the modal says so and links it.
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { workerTypesQuery, type Worker } from '@/api/workers';
import { errorMessage, fieldErrors } from '@/api/errors';
import { OfflineNote, useNeedsNetwork } from '@/components/NeedsNetwork';
import { ErrorList } from '@/components/modal/ErrorList';
import { Modal } from '@/components/modal/Modal';
import { SubmitActions } from '@/components/modal/ModalActions';
import { ui } from '@/components/styles';
import { useCreateWorker } from './api';
import { FormField } from './FormField';
import { slugOf } from './slug';

const FIELDS = ['name', 'slug', 'type', 'description', 'repository_url'];

export function CreateWorkerModal({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated: (worker: Worker) => void;
}) {
  const [name, setName] = useState('');
  // null: the slug follows the name; once edited it is the author's.
  const [ownSlug, setOwnSlug] = useState<string | null>(null);
  const [type, setType] = useState('');
  const [description, setDescription] = useState('');
  const [repository, setRepository] = useState('');
  const [existing, setExisting] = useState<Worker | null>(null);
  const types = useQuery(workerTypesQuery);
  const create = useCreateWorker();
  const offline = useNeedsNetwork();
  const slug = ownSlug ?? slugOf(name);
  // The worker holding the slug is named only while the slug asked about is still the one typed.
  const shownExisting = existing && existing.slug === slug.trim() ? existing : null;

  const blocked =
    offline ??
    (!name.trim()
      ? 'Enter a name'
      : !slug.trim()
        ? 'Enter a slug'
        : !type.trim()
          ? 'Choose or enter a type'
          : null);
  const errors = fieldErrors(create.error);
  const otherErrors = create.error
    ? Object.keys(errors).length
      ? Object.entries(errors)
          .filter(([attr]) => !FIELDS.includes(attr))
          .flatMap(([, messages]) => messages)
      : [errorMessage(create.error)]
    : [];

  const submit = () => {
    if (blocked) return;
    setExisting(null);
    create.mutate(
      {
        name: name.trim(),
        slug: slug.trim(),
        type: type.trim(),
        description: description.trim() || undefined,
        repository_url: repository.trim() || undefined,
      },
      {
        onSuccess: ({ created, worker }) => (created ? onCreated(worker) : setExisting(worker)),
      },
    );
  };

  return (
    <Modal
      title="Create a worker"
      onClose={onClose}
      pending={create.isPending}
      onSubmit={submit}
      footer={
        <SubmitActions
          label="Create"
          pending={create.isPending}
          onCancel={onClose}
          blocked={blocked}
        />
      }
    >
      <OfflineNote action="create a worker" />
      <FormField label="Name" required errors={errors.name}>
        {(props) => (
          <input
            {...props}
            type="text"
            required
            maxLength={100}
            autoComplete="off"
            value={name}
            onChange={(event) => setName(event.target.value)}
            className={ui.input}
          />
        )}
      </FormField>
      <FormField
        label="Slug"
        required
        errors={errors.slug}
        help="Letters, digits, underscores or hyphens; a worker is found by its slug."
      >
        {(props) => (
          <input
            {...props}
            type="text"
            required
            maxLength={100}
            autoComplete="off"
            value={slug}
            onChange={(event) => setOwnSlug(event.target.value)}
            className={`${ui.input} font-mono`}
          />
        )}
      </FormField>
      <FormField
        label="Type"
        required
        errors={errors.type}
        help="Pick a type, or type a new slug to create that type."
      >
        {(props) => (
          <>
            <input
              {...props}
              type="text"
              required
              list="worker-type-choices"
              autoComplete="off"
              value={type}
              onChange={(event) => setType(event.target.value)}
              className={`${ui.input} font-mono`}
            />
            <datalist id="worker-type-choices">
              {types.data?.results.map((item) => (
                <option key={item.id} value={item.slug}>
                  {item.display_name}
                </option>
              ))}
            </datalist>
          </>
        )}
      </FormField>
      <FormField label="Description" errors={errors.description}>
        {(props) => (
          <textarea
            {...props}
            rows={3}
            value={description}
            onChange={(event) => setDescription(event.target.value)}
            className={ui.input}
          />
        )}
      </FormField>
      <FormField label="Repository URL" errors={errors.repository_url}>
        {(props) => (
          <input
            {...props}
            type="url"
            autoComplete="off"
            placeholder="https://"
            value={repository}
            onChange={(event) => setRepository(event.target.value)}
            className={ui.input}
          />
        )}
      </FormField>
      {shownExisting && (
        <p role="alert" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2">
          A worker with the slug <span className="font-mono">{shownExisting.slug}</span> already
          exists: nothing was created.{' '}
          <Link
            to="/process/workers/$workerId"
            params={{ workerId: shownExisting.id }}
            search={{}}
            className={ui.link}
          >
            Open {shownExisting.name}
          </Link>
        </p>
      )}
      <ErrorList messages={otherErrors} />
    </Modal>
  );
}
