// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { elementsApi, json, makeCorpus, makeElement, ref } from '../support/elementsApi';
import { isolateElementPageTests } from '../support/elementPage';
import { openElementModal } from '../support/elementMenu';

isolateElementPageTests();

/** An act in its volume, whose edit the server refuses with `body`, a 400 in DRF's own shape. */
function refusedEdit(body: unknown) {
  const corpus = makeCorpus({ rights: ['read', 'write', 'admin'] });
  const volume = makeElement(corpus, { name: 'Volume 1', type: 'folder' });
  const act = makeElement(corpus, { name: 'Act of sale', type: 'act' });
  elementsApi({
    corpus,
    elements: [volume, act],
    neighbours: { [act.id]: [{ path: [ref(volume)], ordering: 0, previous: null, next: null }] },
    overrides: { [`PATCH /element/${act.id}/`]: () => json(400, body) },
  });
  return act;
}

describe('A form pointed at a server that answers DRF’s default error bodies', () => {
  it('shows a field’s messages under that field and the others above the buttons', async () => {
    const act = refusedEdit({
      name: ['Ensure this field has no more than 250 characters.'],
      non_field_errors: ['This element is locked by a running process.'],
    });
    const { user, dialog } = await openElementModal(act.id, 'Edit element');
    await user.type(within(dialog).getByLabelText('Name'), ' (copy)');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    const message = await within(dialog).findByText(
      'Ensure this field has no more than 250 characters.',
    );
    const name = within(dialog).getByLabelText('Name');
    expect(name.getAttribute('aria-invalid')).toBe('true');
    // The message is the one the Name input points at, not a general one.
    const describedBy = document.getElementById(name.getAttribute('aria-describedby') ?? '');
    expect(describedBy?.contains(message)).toBe(true);
    expect(within(dialog).getByText('This element is locked by a running process.')).toBeTruthy();
    expect(within(dialog).getByLabelText('Type').getAttribute('aria-invalid')).not.toBe('true');
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('shows a plain-string field error of a DRF body under its field too', async () => {
    const act = refusedEdit({ type: 'Object with slug=act does not exist.' });
    const { user, dialog } = await openElementModal(act.id, 'Edit element');
    await user.type(within(dialog).getByLabelText('Name'), '!');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Object with slug=act does not exist.')).toBeTruthy();
    expect(within(dialog).getByLabelText('Type').getAttribute('aria-invalid')).toBe('true');
  });
});
