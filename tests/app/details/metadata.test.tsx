// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import type { AllowedMetadata } from '@/api/types';
import { apiError } from '../support/harness';
import {
  detailsApi,
  isolateDetailsTests,
  makeUser,
  metadata,
  openDetails,
  uuid,
} from '../support/details';

isolateDetailsTests();

const ALLOWED: AllowedMetadata[] = [
  { id: uuid(), type: 'text', name: 'Folio' },
  { id: uuid(), type: 'numeric', name: 'Lines' },
  { id: uuid(), type: 'date', name: 'Written' },
  { id: uuid(), type: 'url', name: 'Source' },
];

const siteAdmin = () => makeUser({ is_admin: true });

async function metadataOf(elementId: string, as = makeUser()) {
  const opened = await openDetails(elementId, as);
  const section = within(opened.panel).getByRole('region', { name: 'Metadata' });
  return { ...opened, section };
}

async function openAdd(user: UserEvent, section: HTMLElement) {
  const add = within(section).getByRole('button', { name: 'Add' }) as HTMLButtonElement;
  // It waits for the project's allowed metadata.
  await waitFor(() => expect(add.disabled).toBe(false));
  await user.click(add);
  return screen.findByRole('dialog', { name: 'Add metadata' });
}

describe('Metadata', () => {
  it('are listed with markdown rendered and links that open', async () => {
    const { element } = detailsApi({
      metadata: [
        metadata({ name: 'Folio', value: '12r' }),
        metadata({ type: 'markdown', name: 'Notes', value: 'A **bold** claim' }),
        metadata({ type: 'url', name: 'Source', value: 'https://archives.example.org/12' }),
      ],
    });
    const { section } = await metadataOf(element.id);
    expect(await within(section).findByText('12r')).toBeTruthy();
    expect((await within(section).findByText('bold')).tagName).toBe('STRONG');
    const link = within(section).getByRole('link', { name: 'https://archives.example.org/12' });
    expect(link.getAttribute('href')).toBe('https://archives.example.org/12');
  });

  it("check each type's value, word for word, before anything is sent", async () => {
    const { element, api, state } = detailsApi({ rights: ['read', 'write'], allowed: ALLOWED });
    const { section, user } = await metadataOf(element.id);
    await within(section).findByText('No metadata');
    const dialog = await openAdd(user, section);
    const name = within(dialog).getByLabelText('Name');
    const value = within(dialog).getByLabelText('Value');
    const add = within(dialog).getByRole('button', { name: 'Add' });
    // Outside free edit, names come from the allowed list.
    expect(
      within(name as HTMLElement)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Folio (text)', 'Lines (numeric)', 'Written (date)', 'Source (url)']);

    await user.click(add);
    expect(within(dialog).getByText('Value may not be empty')).toBeTruthy();

    await user.selectOptions(name, 'Lines (numeric)');
    await user.type(value, 'twelve');
    await user.click(add);
    expect(within(dialog).getByText('Value must be a valid number')).toBeTruthy();

    await user.selectOptions(name, 'Written (date)');
    await user.clear(value);
    await user.type(value, '1789-13-01');
    await user.click(add);
    expect(within(dialog).getByText('This date is invalid')).toBeTruthy();
    await user.clear(value);
    await user.type(value, '1789-02-30');
    expect(within(dialog).getByText('This date is invalid')).toBeTruthy();
    // At most 10 characters: YYYY-MM-DD.
    expect(value.getAttribute('maxlength')).toBe('10');

    await user.selectOptions(name, 'Source (url)');
    await user.clear(value);
    await user.type(value, 'ftp://archives.example.org/12');
    await user.click(add);
    expect(within(dialog).getByText('Only HTTP and HTTPS URLs are allowed')).toBeTruthy();
    await user.clear(value);
    await user.type(value, 'javascript:alert(1)');
    expect(within(dialog).getByText('Only HTTP and HTTPS URLs are allowed')).toBeTruthy();
    expect(api.calls.some((call) => call.method === 'POST')).toBe(false);

    await user.selectOptions(name, 'Written (date)');
    await user.clear(value);
    await user.type(value, '1789-07');
    await user.click(add);
    expect(await screen.findByText('Metadata created.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await within(section).findByText('1789-07')).toBeTruthy();
    expect(state.metadata.map(({ type, name, value }) => [type, name, value])).toEqual([
      ['date', 'Written', '1789-07'],
    ]);
  });

  it('are added with a numeric value, then edited and deleted', async () => {
    const { element, api } = detailsApi({ rights: ['read', 'write'], allowed: ALLOWED });
    const { section, user } = await metadataOf(element.id);
    await within(section).findByText('No metadata');
    let dialog = await openAdd(user, section);
    await user.selectOptions(within(dialog).getByLabelText('Name'), 'Lines (numeric)');
    await user.type(within(dialog).getByLabelText('Value'), ' 24.5 {Enter}');
    expect(await screen.findByText('Metadata created.')).toBeTruthy();
    expect(await within(section).findByText('24.5')).toBeTruthy();

    await user.click(within(section).getByRole('button', { name: 'Edit Lines' }));
    dialog = await screen.findByRole('dialog', { name: 'Edit metadata' });
    const value = within(dialog).getByLabelText('Value');
    await user.clear(value);
    await user.type(value, '25');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Metadata updated.')).toBeTruthy();
    expect(await within(section).findByText('25')).toBeTruthy();

    await user.click(within(section).getByRole('button', { name: 'Delete Lines' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete metadata' });
    expect(confirm.textContent).toContain('Are you sure you want to delete the metadata Lines?');
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Metadata deleted.')).toBeTruthy();
    expect(await within(section).findByText('No metadata')).toBeTruthy();

    const writes = api.calls.filter((call) => call.method !== 'GET');
    const id = writes[1]!.path.split('/')[2];
    expect(writes.map((call) => [call.method, call.path, call.body])).toEqual([
      [
        'POST',
        `/element/${element.id}/metadata/`,
        { type: 'numeric', name: 'Lines', value: '24.5' },
      ],
      ['PATCH', `/metadata/${id}/`, { type: 'numeric', name: 'Lines', value: '25' }],
      ['DELETE', `/metadata/${id}/`, null],
    ]);
  });

  it("shows a 400's field errors under their field", async () => {
    const id = uuid();
    const { element } = detailsApi({
      element: { id },
      rights: ['read', 'write'],
      allowed: ALLOWED,
      overrides: {
        [`POST /element/${id}/metadata/`]: () =>
          apiError(400, [
            { attr: 'value', detail: 'Ensure this field has no more than 5000 characters.' },
          ]),
      },
    });
    const { section, user } = await metadataOf(element.id);
    await within(section).findByText('No metadata');
    const dialog = await openAdd(user, section);
    await user.type(within(dialog).getByLabelText('Value'), 'f. 12{Enter}');
    expect(
      await within(dialog).findByText('Ensure this field has no more than 5000 characters.'),
    ).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Add metadata' })).toBeTruthy();
  });

  it('warn a contributor that the project allows none, and refuse any name', async () => {
    const { element, api } = detailsApi({ rights: ['read', 'write'] });
    const { section, user } = await metadataOf(element.id);
    expect((await within(section).findByRole('status')).textContent).toBe(
      'There are no allowed metadata for this project. Please contact your administrator.',
    );
    const dialog = await openAdd(user, section);
    await user.selectOptions(within(dialog).getByLabelText('Type'), 'Text');
    await user.type(within(dialog).getByLabelText('Name'), 'Folio');
    await user.type(within(dialog).getByLabelText('Value'), '12r');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(within(dialog).getByText('This name/type combination is not allowed')).toBeTruthy();
    expect(api.calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it('tell a project admin where to add allowed metadata', async () => {
    const { element } = detailsApi({ rights: ['read', 'write', 'admin'] });
    const { section } = await metadataOf(element.id);
    expect((await within(section).findByRole('status')).textContent).toBe(
      'There are no allowed metadata for this project. Use the administration panel to add them.',
    );
  });

  it('protect from a contributor those outside the allowed list', async () => {
    const { element } = detailsApi({
      rights: ['read', 'write'],
      allowed: ALLOWED,
      metadata: [
        metadata({ name: 'Folio', value: '12r' }),
        metadata({ name: 'Shelfmark', value: 'MS 7' }),
      ],
    });
    const { section, user } = await metadataOf(element.id);
    await within(section).findByText('MS 7');
    expect(
      within(section).getByRole('button', { name: 'Edit Folio' }).getAttribute('aria-disabled'),
    ).toBe('false');
    const edit = within(section).getByRole('button', { name: 'Edit Shelfmark' });
    const remove = within(section).getByRole('button', { name: 'Delete Shelfmark' });
    // Until the allowed list is in, nothing is refused here (spec 001 §6).
    await waitFor(() => expect(edit.getAttribute('aria-disabled')).toBe('true'));
    expect(edit.title).toBe('Only an administrator can edit this protected metadata');
    expect(remove.title).toBe('Only an administrator can delete this protected metadata');
    await user.click(edit);
    await user.click(remove);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('let a site admin edit any, and warn of free editing mode', async () => {
    const { element, state } = detailsApi({
      allowed: ALLOWED,
      metadata: [metadata({ name: 'Shelfmark', value: 'MS 7' })],
    });
    const { section, user } = await metadataOf(element.id, siteAdmin());
    await within(section).findByText('MS 7');
    expect(within(section).queryByRole('status')).toBeNull();
    const edit = within(section).getByRole('button', { name: 'Edit Shelfmark' });
    expect(edit.getAttribute('aria-disabled')).toBe('false');

    const dialog = await openAdd(user, section);
    // Outside free edit a site admin too picks an allowed name.
    expect(within(dialog).queryByText('Caution! You are in free editing mode')).toBeNull();
    expect(within(dialog).getByLabelText('Name').tagName).toBe('SELECT');
    expect(within(dialog).queryByLabelText('Type')).toBeNull();
    await user.click(within(dialog).getByRole('switch', { name: 'Free edit' }));
    expect(within(dialog).getByText('Caution! You are in free editing mode')).toBeTruthy();
    await user.selectOptions(within(dialog).getByLabelText('Type'), 'Reference');
    await user.clear(within(dialog).getByLabelText('Name'));
    await user.type(within(dialog).getByLabelText('Name'), 'Catalogue');
    await user.type(within(dialog).getByLabelText('Value'), 'CAT-1789');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Metadata created.')).toBeTruthy();
    expect(state.metadata.map(({ type, name }) => `${type} ${name}`)).toEqual([
      'text Shelfmark',
      'reference Catalogue',
    ]);
  });

  it('refuse a site admin a name outside the list until free edit is on', async () => {
    const { element, api } = detailsApi({ allowed: [] });
    const { section, user } = await metadataOf(element.id, siteAdmin());
    expect((await within(section).findByRole('status')).textContent).toBe(
      'There are no allowed metadata for this project. Use the administration panel to add them.',
    );
    const dialog = await openAdd(user, section);
    await user.type(within(dialog).getByLabelText('Name'), 'Catalogue');
    await user.type(within(dialog).getByLabelText('Value'), 'CAT-1789');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(within(dialog).getByText('This name/type combination is not allowed')).toBeTruthy();
    expect(api.calls.some((call) => call.method === 'POST')).toBe(false);
    await user.click(within(dialog).getByRole('switch', { name: 'Free edit' }));
    expect(within(dialog).queryByText('This name/type combination is not allowed')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Metadata created.')).toBeTruthy();
  });

  it('offer no free edit to others', async () => {
    const { element } = detailsApi({ allowed: ALLOWED });
    const { section, user } = await metadataOf(element.id);
    await within(section).findByText('No metadata');
    const dialog = await openAdd(user, section);
    expect(within(dialog).queryByRole('switch', { name: 'Free edit' })).toBeNull();
  });
});
