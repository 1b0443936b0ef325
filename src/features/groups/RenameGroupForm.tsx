import { useId, useState, type FormEvent } from 'react';
import { errorMessage, fieldErrors } from '@/api/errors';
import { GROUP_NAME_MAX_LENGTH, type Group } from '@/api/groups';
import { GuardedButton } from '@/components/GuardedButton';
import { useNeedsNetwork } from '@/components/NeedsNetwork';
import { notify } from '@/components/notifications/store';
import { ui } from '@/components/styles';
import { useRenameGroup } from './api';

/** The group's name, editable in place by its admins. */
export function RenameGroupForm({ group, onDone }: { group: Group; onDone: () => void }) {
  const [name, setName] = useState(group.name);
  const rename = useRenameGroup(group.id);
  const offline = useNeedsNetwork();
  const id = useId();
  const trimmed = name.trim();
  const nameError = fieldErrors(rename.error).name?.join(' ');
  const formError = rename.error && !nameError ? errorMessage(rename.error) : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!trimmed || rename.isPending || offline) return;
    if (trimmed === group.name) return onDone();
    rename.mutate(trimmed, {
      onSuccess: (renamed) => {
        notify({ type: 'success', text: `The group is now named ${renamed.name}.` });
        onDone();
      },
    });
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Rename the group" className="space-y-2">
      <label htmlFor={`${id}-name`} className={ui.label}>
        Name
      </label>
      <div className="flex flex-wrap items-center gap-2">
        <input
          id={`${id}-name`}
          value={name}
          maxLength={GROUP_NAME_MAX_LENGTH}
          onChange={(event) => {
            setName(event.target.value);
            if (rename.error) rename.reset();
          }}
          aria-invalid={nameError ? true : undefined}
          className={`${ui.input} max-w-md`}
          autoFocus
        />
        <GuardedButton
          type="submit"
          blocked={offline}
          className={ui.primaryButton}
          disabled={!trimmed || rename.isPending}
        >
          {rename.isPending ? 'Saving…' : 'Save'}
        </GuardedButton>
        <button type="button" className={ui.secondaryButton} onClick={onDone}>
          Cancel
        </button>
      </div>
      {!trimmed && <p className={ui.fieldError}>A group needs a name.</p>}
      {nameError && <p className={ui.fieldError}>{nameError}</p>}
      {formError && <p className={ui.fieldError}>{formError}</p>}
    </form>
  );
}
