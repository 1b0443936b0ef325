// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { localDb } from '@/offline/db';
import { readElement } from '@/offline/elementReads';
import { PACK_CACHE } from '@/offline/packs';
import { connectivity } from '@/offline/runtime';
import { readAllZones } from '@/offline/zoneReads';
import { isolateElementPageTests } from '../support/elementPage';
import { openElement, openModal } from '../support/elementMenu';
import { memoryCaches, register, registerServers, TILE_BYTES } from './support';

isolateElementPageTests();
let caches: ReturnType<typeof memoryCaches>;
beforeEach(async () => {
  await Promise.all(localDb.tables.map((table) => table.clear()));
  caches = memoryCaches();
  vi.stubGlobal('caches', caches.storage);
});
afterEach(() => {
  // Navigator properties are not globals vi.unstubAllGlobals restores.
  delete (navigator as { storage?: unknown }).storage;
});

const OFFLINE = { online: false };

/** Opens the folder's page, then "Make available offline" in its Display menu. */
async function openDialog(id: string) {
  const user = userEvent.setup();
  openElement(id);
  const dialog = await openModal(
    user,
    'Display',
    'Make available offline',
    'Make available offline',
  );
  return { user, dialog };
}

async function estimateText(dialog: HTMLElement): Promise<string> {
  return (await within(dialog).findByTestId('pack-estimate')).textContent ?? '';
}

describe('Make available offline', () => {
  it('shows what will be downloaded and its size before anything is stored', async () => {
    const data = register();
    const { iiif } = registerServers(data);
    const { user, dialog } = await openDialog(data.folder.id);

    // The folder, 2 pages and 4 lines; per image 1 + 2 + 6 tiles up to 1000 × 1500 px (this
    // screen is smaller), and the pages' two card thumbnails.
    expect(await estimateText(dialog)).toMatch(
      /^7 elements, 2 images \(20 tiles\): about \d+ KB\.$/,
    );
    const screenSize = Number((await estimateText(dialog)).match(/about (\d+) KB/)![1]);
    // 20 tiles at about 2,500 bytes per 512 × 512 px: of the order of 50 KB.
    expect(screenSize).toBeGreaterThan(30);
    expect(screenSize).toBeLessThan(80);

    // Thumbnails: the 500 px size and the two levels up to it.
    await user.selectOptions(within(dialog).getByLabelText('Image detail'), 'Thumbnails only');
    expect(await estimateText(dialog)).toMatch(/^7 elements, 2 images \(10 tiles\): about/);
    const thumbnailSize = Number((await estimateText(dialog)).match(/about (\d+) KB/)![1]);
    expect(thumbnailSize).toBeLessThan(screenSize);

    // Planning read the info.json of each image and one sample tile, and stored nothing.
    expect(iiif.requested.filter((url) => url.endsWith('/info.json'))).toHaveLength(2);
    expect(iiif.requested.filter((url) => !url.endsWith('/info.json'))).toHaveLength(1);
    expect(caches.urls(PACK_CACHE)).toEqual([]);
    expect(await localDb.packs.count()).toBe(0);
    // Only what the folder's page read itself: the folder and its two pages.
    expect(await localDb.elements.count()).toBe(3);
  });

  it('stores every element, the project and the tiles, so the pages open offline', async () => {
    const data = register();
    const { iiif } = registerServers(data);
    const { user, dialog } = await openDialog(data.folder.id);
    await estimateText(dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Download' }));
    await within(dialog).findByText(/^Available offline: 7 elements and 20 tiles, \d+ KB\.$/);

    // The pages in full, with the rights that let them be edited offline.
    for (const page of data.pages) {
      const stored = await readElement(localDb, page.id, OFFLINE);
      expect(stored.name).toBe(page.name);
      expect(stored.rights).toEqual(['read', 'write', 'admin']);
      // And the lines drawn over their image.
      const zones = await readAllZones(localDb, page.id, OFFLINE);
      expect(zones.map((zone) => zone.name)).toHaveLength(2);
    }
    // Lines as listed: they open offline, read-only until the network returns.
    const line = await readElement(localDb, data.lines[3]!.id, OFFLINE);
    expect(line.name).toBe('Line 2.2');
    expect((await localDb.elements.get(data.lines[3]!.id))?.full).toBe(false);
    expect((await localDb.elements.get(data.pages[0]!.id))?.full).toBe(true);
    expect((await localDb.corpora.get(data.corpus.id))?.data.types).toEqual(data.corpus.types);

    // Each image's info.json, its 9 tiles, and the two thumbnails.
    const cached = caches.urls(PACK_CACHE);
    expect(cached).toHaveLength(22);
    expect(cached.filter((url) => url.endsWith('/info.json'))).toHaveLength(2);
    for (const url of cached.filter((url) => !url.endsWith('/info.json'))) {
      expect(iiif.requested).toContain(url);
    }
    const pack = await localDb.packs.get(data.folder.id);
    expect(pack).toMatchObject({
      name: 'Register 1',
      corpusId: data.corpus.id,
      zoom: 'screen',
      status: 'complete',
      elementCount: 7,
      tileCount: 20,
    });
    expect(pack!.bytes).toBeGreaterThan(20 * TILE_BYTES);

    // Listed on this device, with its size.
    const list = within(dialog).getByRole('list', { name: 'Available offline' });
    expect(within(list).getByRole('link', { name: 'Register 1' })).toBeTruthy();
    expect(list.textContent).toMatch(/\d+ KB · 7 elements · screen size/);
  });

  it('keeps what was stored when cancelled, and marks the pack', async () => {
    const data = register();
    const { iiif } = registerServers(data);
    const { user, dialog } = await openDialog(data.folder.id);
    await estimateText(dialog);
    iiif.hold();
    await user.click(within(dialog).getByRole('button', { name: 'Download' }));
    // The first info.json is stored; the tiles wait for the server.
    await within(dialog).findByText(/^Images: 1 of 22/);
    expect(within(dialog).getByRole('progressbar', { name: 'Download progress' })).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    await within(dialog).findByText(/^Cancelled\. What was downloaded stays on this device/);
    expect(await localDb.packs.get(data.folder.id)).toMatchObject({
      status: 'cancelled',
      elementCount: 7,
      tileCount: 0,
    });
    expect(caches.urls(PACK_CACHE)).toEqual([`${data.images[0]!.url}/info.json`]);
    expect((await readElement(localDb, data.pages[1]!.id, OFFLINE)).name).toBe('Page 2');
    const list = within(dialog).getByRole('list', { name: 'Available offline' });
    expect(within(list).getByText('Cancelled, incomplete')).toBeTruthy();

    // Downloading again finishes it.
    iiif.release();
    await user.click(within(dialog).getByRole('button', { name: 'Download again' }));
    await within(dialog).findByText(/^Available offline: 7 elements and 20 tiles/);
    expect(caches.urls(PACK_CACHE)).toHaveLength(22);
    expect((await localDb.packs.get(data.folder.id))?.status).toBe('complete');
  });

  it('removes a pack with its tiles', async () => {
    const data = register();
    registerServers(data);
    const { user, dialog } = await openDialog(data.folder.id);
    await estimateText(dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Download' }));
    await within(dialog).findByText(/^Available offline:/);
    expect(caches.urls(PACK_CACHE)).toHaveLength(22);

    await user.click(within(dialog).getByRole('button', { name: 'Remove Register 1' }));
    await within(dialog).findByText('Nothing is made available offline yet.');
    expect(caches.urls(PACK_CACHE)).toEqual([]);
    expect(await localDb.packs.count()).toBe(0);
    expect(await localDb.packTiles.count()).toBe(0);
    // The elements stay in the local store, as every visit leaves them.
    expect((await readElement(localDb, data.pages[0]!.id, OFFLINE)).name).toBe('Page 1');
  });

  it('needs the network to start', async () => {
    const data = register();
    const { iiif } = registerServers(data);
    const { user, dialog } = await openDialog(data.folder.id);
    await estimateText(dialog);
    connectivity.store.set({ online: false, checkedAt: Date.now() });

    await within(dialog).findByText(/^You are offline\./);
    const download = within(dialog).getByRole('button', { name: 'Download' });
    expect(download.getAttribute('aria-disabled')).toBe('true');
    expect(download.getAttribute('title')).toBe('Needs the network');
    const asked = iiif.requested.length;
    await user.click(download);
    expect(iiif.requested).toHaveLength(asked);
    expect(await localDb.packs.count()).toBe(0);

    // Back online, it checks again and can start.
    connectivity.store.set({ online: true, checkedAt: Date.now() });
    expect(await estimateText(dialog)).toMatch(/^7 elements/);
    expect(download.getAttribute('aria-disabled')).toBeNull();
  });

  it('shows the storage used, the quota, and asks to keep the data', async () => {
    const data = register();
    registerServers(data);
    let persisted = false;
    const persist = vi.fn(async () => (persisted = true));
    Object.defineProperty(navigator, 'storage', {
      configurable: true,
      value: {
        estimate: async () => ({ usage: 12_345_678, quota: 2_000_000_000 }),
        persisted: async () => persisted,
        persist,
      },
    });
    const { user, dialog } = await openDialog(data.folder.id);

    const usage = await within(dialog).findByTestId('storage-usage');
    expect(usage.textContent).toBe('12 MB used of 2 GB available to this app');
    const bar = within(dialog).getByRole('progressbar', { name: 'Storage used' });
    expect(bar.getAttribute('aria-valuenow')).toBe('1');
    expect(within(dialog).getByTestId('storage-persistence').textContent).toBe(
      'The browser may clear this data when space runs low.',
    );

    await user.click(within(dialog).getByRole('button', { name: 'Keep data on this device' }));
    expect(persist).toHaveBeenCalledOnce();
    await waitFor(() =>
      expect(within(dialog).getByTestId('storage-persistence').textContent).toMatch(
        /^Kept until you remove it/,
      ),
    );
    expect(within(dialog).queryByRole('button', { name: 'Keep data on this device' })).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
