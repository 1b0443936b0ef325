/** The element page's header menu, as a person uses it: a section, then one of its entries. */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { expect } from 'vitest';
import { ViewerFactoryContext } from '@/features/viewer/viewerContext';
import type { User } from '@/api/types';
import { makeUser, renderApp } from './elementsApi';
import { fakeViewerFactory } from './fakeViewer';

/** Opens an element page, with a stand-in viewer for elements on an image. */
export function openElement(id: string, user: User | null = makeUser()) {
  const viewers = fakeViewerFactory();
  return renderApp(`/element/${id}`, user, (ui) => (
    <ViewerFactoryContext.Provider value={viewers.factory}>{ui}</ViewerFactoryContext.Provider>
  ));
}

/** Opens a section of the header menu and finds one entry once the project is in. */
export async function menuEntry(user: UserEvent, section: string, entry: string) {
  const nav = await screen.findByRole('navigation', { name: 'Element navigation' });
  await user.click(within(nav).getByRole('button', { name: section }));
  // Entries wait for the project's types; until then they say it is loading.
  return waitFor(() => {
    const item = screen.getByRole('menuitem', { name: entry });
    expect(item.getAttribute('title')).not.toBe('The project is loading');
    return item;
  });
}

/** Chooses an entry of the header menu and returns the modal it opens. */
export async function openModal(user: UserEvent, section: string, entry: string, title: string) {
  await user.click(await menuEntry(user, section, entry));
  return screen.findByRole('dialog', { name: title });
}

/**
 * Opens an element page as `as`, then the entry of its Elements menu that opens the modal of
 * the same title: the person's events, the modal and the page.
 */
export async function openElementModal(id: string, entry: string, as?: User | null) {
  const user = userEvent.setup();
  const page = openElement(id, as);
  const dialog = await openModal(user, 'Elements', entry, entry);
  return { ...page, user, dialog };
}
