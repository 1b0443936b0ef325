import { expect, test } from '@playwright/test';
import {
  AnnotationPage,
  ServerApi,
  near,
  signInWithBlankPage,
  type Point,
  type Zone,
} from './support/annotation';

test.use({ viewport: { width: 1400, height: 900 } });

const shape = ({ name, type, polygon }: Zone) => ({ name, type, polygon });

test('a creation, a reshape and a deletion are undone and redone, by keys and buttons, on the server', async ({
  page,
}) => {
  const blank = await signInWithBlankPage(page, 'Undone zones', 'undoer');
  const api = new ServerApi(page);
  const annotation = new AnnotationPage(page, blank);
  const serverZones = async () => (await api.zones(blank.pageId)).map(shape);
  await annotation.open();
  await annotation.turnOn();
  const undo = annotation.panel.getByRole('button', { name: 'Undo' });
  const redo = annotation.panel.getByRole('button', { name: 'Redo' });
  await expect(undo).toBeDisabled();
  await expect(redo).toBeDisabled();

  // A creation: Ctrl+Z deletes it on the server, the Redo button creates it again.
  await annotation.chooseTool('Rectangle');
  await annotation.drag([300, 600], [900, 900]);
  await annotation.createWithForm('Stamp', 'Paragraph');
  await expect.poll(async () => (await serverZones()).length).toBe(1);
  await annotation.synced();
  const [created] = await serverZones();
  await expect(undo).toHaveAttribute('title', 'Undo create “Stamp” (Ctrl+Z)');
  await page.keyboard.press('Control+z');
  await expect.poll(serverZones).toEqual([]);
  await annotation.synced();
  await expect(redo).toBeEnabled();
  await redo.click();
  await expect.poll(serverZones).toEqual([created]);
  await annotation.synced();
  await expect(redo).toBeDisabled();

  // A reshape: the Undo button puts the polygon back, Ctrl+Y reshapes it again.
  await annotation.chooseTool('Select');
  await annotation.select([600, 750], 'Stamp');
  const corner = created!.polygon.findIndex(([x, y]) => x > 850 && y > 850);
  await annotation.drag(created!.polygon[corner]!, [1000, 1000]);
  const expected = created!.polygon.map((point, i): Point => (i === corner ? [1000, 1000] : point));
  await expect.poll(async () => near((await serverZones())[0]!.polygon, expected)).toBe(true);
  await annotation.synced();
  const [reshaped] = await serverZones();
  await undo.click();
  await expect.poll(serverZones).toEqual([created]);
  await annotation.synced();
  await page.keyboard.press('Control+y');
  await expect.poll(serverZones).toEqual([reshaped]);
  await annotation.synced();
  await annotation.shot('reshape-redone');

  // A deletion: Ctrl+Z brings the zone back as it was, Ctrl+Shift+Z deletes it again.
  await annotation.chooseTool('Delete');
  await annotation.click([600, 750]);
  const confirm = await annotation.expectOpen('Delete element');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  // While a dialog is open (this one closing too) the keys are its own.
  await annotation.expectClosed('Delete element');
  await expect.poll(serverZones).toEqual([]);
  await annotation.synced();
  await page.keyboard.press('Control+z');
  await expect.poll(serverZones).toEqual([reshaped]);
  await annotation.synced();
  const [restored] = await api.zones(blank.pageId);
  expect(await api.zone(restored!.id)).toMatchObject({ name: 'Stamp', type: 'paragraph' });
  await page.keyboard.press('Control+Shift+Z');
  await expect.poll(serverZones).toEqual([]);
  await annotation.synced();
  expect(await api.zone(restored!.id)).toBeNull();
});
