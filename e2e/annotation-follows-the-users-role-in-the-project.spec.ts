import { expect, test } from '@playwright/test';
import {
  AnnotationPage,
  PASSWORD,
  ServerApi,
  logIn,
  signInWithBlankPage,
  type Point,
} from './support/annotation';
import { createUser, uniqueEmail } from './support/server';

const viewport = { width: 1400, height: 900 };
test.use({ viewport });

const rectangle = (x0: number, y0: number, x1: number, y1: number): Point[] => [
  [x0, y0],
  [x1, y0],
  [x1, y1],
  [x0, y1],
];

test('a guest cannot turn annotation mode on, a contributor annotates but cannot delete, an admin deletes', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const blank = await signInWithBlankPage(page, 'Shared register', 'owner');
  const api = new ServerApi(page);
  const guestEmail = uniqueEmail('guest');
  const contributorEmail = uniqueEmail('contributor');
  createUser(guestEmail, PASSWORD);
  createUser(contributorEmail, PASSWORD);
  await api.addMember(blank.corpusId, guestEmail, 10);
  await api.addMember(blank.corpusId, contributorEmail, 50);
  const ownerLine = await api.createZone(blank, 'Owner line', 'text_line', [
    ...rectangle(200, 400, 1000, 600),
  ]);

  // A guest reads the page; the toggle is disabled and says why.
  const guestContext = await browser.newContext({ viewport });
  const guestPage = await guestContext.newPage();
  await logIn(guestPage, guestEmail);
  const guest = new AnnotationPage(guestPage, blank);
  await guest.open();
  await expect(guest.toggle).toHaveAttribute('aria-disabled', 'true');
  await expect(guest.toggle).toHaveAttribute(
    'title',
    'You must have a contributor access to this project',
  );
  await guest.toggle.click({ force: true });
  await expect(guest.toggle).toHaveAttribute('aria-pressed', 'false');
  await expect(guest.panel).toHaveCount(0);
  await guest.shot('guest');
  await guestContext.close();

  // A contributor draws and retypes, but the Delete tool is disabled with the spec's tooltip.
  const contributorContext = await browser.newContext({ viewport });
  const contributorPage = await contributorContext.newPage();
  await logIn(contributorPage, contributorEmail);
  const contributor = new AnnotationPage(contributorPage, blank);
  await contributor.open();
  await contributor.turnOn();
  const deleteTool = contributor.tool('Delete');
  await expect(deleteTool).toHaveAttribute('aria-disabled', 'true');
  await expect(deleteTool).toHaveAttribute(
    'title',
    'You must have an admin access to this project',
  );
  await deleteTool.click({ force: true });
  await contributorPage.keyboard.press('d');
  await expect(contributor.tool('Select')).toHaveAttribute('aria-pressed', 'true');
  await expect(deleteTool).toHaveAttribute('aria-pressed', 'false');
  await contributor.shot('contributor');

  await contributor.chooseTool('Rectangle');
  await contributor.drag([200, 900], [1000, 1200]);
  await contributor.createWithForm('Contributor line', 'Text line');
  await contributorPage.keyboard.press('t');
  await contributor.click([600, 500]);
  const typeForm = await contributor.expectOpen('Edit the type of Owner line');
  await typeForm.getByLabel('Type').selectOption({ label: 'Paragraph' });
  await typeForm.getByRole('button', { name: 'Save' }).click();
  await contributor.expectClosed('Edit the type of Owner line');

  // Delete on a selected zone says the contributor may not.
  await contributorPage.keyboard.press('s');
  await contributor.select([600, 500], 'Owner line');
  await contributorPage.keyboard.press('Delete');
  await expect(
    contributor.notification("You don't have the necessary rights to delete this element."),
  ).toBeVisible();
  await contributor.synced();
  await expect
    .poll(async () => (await api.zones(blank.pageId)).map(({ name, type }) => `${name}: ${type}`))
    .toEqual(['Contributor line: text_line', 'Owner line: paragraph']);
  await contributorContext.close();

  // The admin deletes the contributor's zone.
  const admin = new AnnotationPage(page, blank);
  await admin.open();
  await admin.turnOn();
  await expect(admin.tool('Delete')).toHaveAttribute('aria-disabled', 'false');
  await admin.chooseTool('Delete');
  await admin.click([600, 1050]);
  const confirm = await admin.expectOpen('Delete element');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect
    .poll(async () => (await api.zones(blank.pageId)).map((zone) => zone.id))
    .toEqual([ownerLine.id]);
  await admin.synced();
});
