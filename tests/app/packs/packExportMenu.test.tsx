// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { strFromU8, unzipSync } from 'fflate';
import { localDb } from '@/offline/db';
import { connectivity } from '@/offline/runtime';
import { isolateElementPageTests } from '../support/elementPage';
import { openElement, openModal } from '../support/elementMenu';
import { memoryCaches, register, registerServers } from './support';

isolateElementPageTests();
beforeEach(async () => {
  await Promise.all(localDb.tables.map((table) => table.clear()));
  vi.stubGlobal('caches', memoryCaches().storage);
});

/** What the Export menu handed the browser to save: the file's name and bytes. */
function catchDownloads() {
  const saved: { name: string; blob: Blob }[] = [];
  const blobs = new Map<string, Blob>();
  let next = 0;
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    const url = `blob:test/${next++}`;
    blobs.set(url, blob as Blob);
    return url;
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    saved.push({ name: this.download, blob: blobs.get(this.href)! });
  });
  return saved;
}

describe('a pack exported from the storage panel', () => {
  it('downloads PAGE XML and CSV made on the device, with the network off', async () => {
    const data = register();
    registerServers(data);
    const user = userEvent.setup();
    openElement(data.folder.id);
    const dialog = await openModal(
      user,
      'Display',
      'Make available offline',
      'Make available offline',
    );
    await within(dialog).findByTestId('pack-estimate');
    await user.click(within(dialog).getByRole('button', { name: 'Download' }));
    await within(dialog).findByText(/^Available offline: /);

    connectivity.store.set({ online: false, checkedAt: Date.now() });
    const fetches = vi.fn(() => Promise.reject(new TypeError('Failed to fetch')));
    vi.stubGlobal('fetch', fetches);
    const saved = catchDownloads();
    const list = within(dialog).getByRole('list', { name: 'Available offline' });

    await user.click(within(list).getByRole('button', { name: 'Export Register 1' }));
    const menu = within(list).getByRole('menu', { name: 'Export Register 1 as' });
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['PAGE XML', 'ALTO', 'CSV']);
    await user.click(within(menu).getByRole('menuitem', { name: 'PAGE XML' }));
    await vi.waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]!.name).toBe('Register 1-page.zip');
    const files = unzipSync(new Uint8Array(await saved[0]!.blob.arrayBuffer()));
    expect(Object.keys(files)).toEqual(['Page 1.xml', 'Page 2.xml']);
    const first = strFromU8(files['Page 1.xml']!);
    for (const line of data.lines.slice(0, 2)) expect(first).toContain(`l_${line.id}`);
    // The menu closed once chosen.
    expect(within(list).queryByRole('menu')).toBeNull();

    await user.click(within(list).getByRole('button', { name: 'Export Register 1' }));
    await user.click(within(list).getByRole('menuitem', { name: 'CSV' }));
    await vi.waitFor(() => expect(saved).toHaveLength(2));
    expect(saved[1]!.name).toBe('Register 1.csv');
    const rows = (await saved[1]!.blob.text()).split('\r\n');
    // The header, the folder, 2 pages and 4 lines, and the last CRLF.
    expect(rows).toHaveLength(1 + 7 + 1);
    expect(rows.find((row) => row.includes(',Line 2.2,'))).toMatch(/,text_line,.*,Page 2,/);
    expect(fetches).not.toHaveBeenCalled();
  });
});
