import { expect, test } from '@playwright/test';
import {
  AnnotationPage,
  ServerApi,
  near,
  sameShape,
  signInWithBlankPage,
  type Point,
  type Zone,
} from './support/annotation';

test.use({ viewport: { width: 1400, height: 900 } });

const shape = ({ name, type, polygon }: Zone) => ({ name, type, polygon });

test('a zone drawn, reshaped, another deleted and the deletion undone offline reach the server once back online', async ({
  page,
  context,
}) => {
  const blank = await signInWithBlankPage(page, 'Offline zones', 'offline');
  const api = new ServerApi(page);
  const old = await api.createZone(blank, 'Old', 'text_line', [
    [200, 1500],
    [1000, 1500],
    [1000, 1800],
    [200, 1800],
  ]);
  const annotation = new AnnotationPage(page, blank);
  const serverZones = async () => (await api.zones(blank.pageId)).map(shape);
  await annotation.open();
  await annotation.turnOn();

  await context.setOffline(true);
  await expect(page.getByText('You are offline')).toBeVisible();

  // A new zone, drawn then reshaped.
  await annotation.chooseTool('Rectangle');
  await annotation.drag([200, 500], [900, 800]);
  await annotation.createWithForm('New', 'Paragraph');
  await annotation.chooseTool('Select');
  await annotation.select([550, 650], 'New');
  await annotation.drag([900, 800], [1000, 900]);

  // The old zone deleted, and the deletion undone.
  await annotation.chooseTool('Delete');
  await annotation.click([600, 1650]);
  const confirm = await annotation.expectOpen('Delete element');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await annotation.expectClosed('Delete element');
  await expect(annotation.panel.getByRole('button', { name: 'Undo' })).toHaveAttribute(
    'title',
    'Undo delete “Old” (Ctrl+Z)',
  );
  await page.keyboard.press('Control+z');
  await expect(annotation.panel.getByRole('button', { name: 'Redo' })).toBeEnabled();

  await expect(annotation.navbar.getByText(/\d+ pending/)).toBeVisible();
  await annotation.shot('offline');
  // Nothing has reached the server yet.
  expect(await serverZones()).toEqual([shape(old)]);

  await context.setOffline(false);
  await expect(page.getByText('You are offline')).toBeHidden({ timeout: 20_000 });
  await annotation.synced();
  const zones = await serverZones();
  expect(zones.map(({ name, type }) => `${name}: ${type}`)).toEqual([
    'New: paragraph',
    'Old: text_line',
  ]);
  const reshaped: Point[] = [
    [200, 500],
    [900, 500],
    [1000, 900],
    [200, 800],
  ];
  const [created, restored] = zones;
  expect(sameShape(created!.polygon, reshaped), JSON.stringify(created!.polygon)).toBe(true);
  expect(near(restored!.polygon, old.polygon, 0)).toBe(true);
  await annotation.shot('back-online');
});
