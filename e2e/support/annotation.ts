import path from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import { SHARED_DATA_DIR } from '../../tests/server/sharedData';
import { AccountPages } from './pages';
import { createUser, importWithCli, uniqueEmail } from './server';

/** A small page image (1280 × 2086, 85 kB): imported alone it is a page with no zones yet. */
export const PAGE_IMAGE = path.join(
  SHARED_DATA_DIR,
  'ocrd-gt_structure_text/laube_europa0202_1837/GT-PAGE/laube_europa0202_1837_0007.jpg',
);
export const PASSWORD = 'reading room 1789';

export type Point = [number, number];

export interface Zone {
  id: string;
  name: string;
  type: string;
  /** The zone's polygon as an open ring (the API closes it). */
  polygon: Point[];
}

export interface BlankPage {
  email: string;
  corpusId: string;
  pageId: string;
  imageId: string;
  width: number;
  height: number;
}

interface ApiElement {
  id: string;
  name: string;
  type: string;
  zone: { polygon: Point[]; image: { id: string; width: number; height: number } } | null;
}

const openRing = (polygon: Point[]): Point[] => {
  const first = polygon[0];
  const last = polygon.at(-1);
  return polygon.length > 1 && first && last && first[0] === last[0] && first[1] === last[1]
    ? polygon.slice(0, -1)
    : polygon;
};

const zoneOf = (element: ApiElement): Zone => ({
  id: element.id,
  name: element.name,
  type: element.type,
  polygon: openRing(element.zone?.polygon ?? []),
});

/**
 * The API as the signed-in browser session calls it (its cookies, its CSRF token): what the
 * server holds, read apart from the app, and the set-up a test needs beside the screens.
 */
export class ServerApi {
  constructor(private readonly page: Page) {}

  private async headers(): Promise<Record<string, string>> {
    const cookies = await this.page.context().cookies();
    const csrf = cookies.find((cookie) => cookie.name === 'arkindex.csrf')?.value ?? '';
    return { 'x-csrftoken': csrf };
  }

  async get<T>(url: string): Promise<T> {
    const response = await this.page.request.get(`/api/v1${url}`);
    expect(response.status(), `GET ${url}`).toBe(200);
    return (await response.json()) as T;
  }

  async post<T>(url: string, data: unknown): Promise<T> {
    const response = await this.page.request.post(`/api/v1${url}`, {
      data,
      headers: await this.headers(),
    });
    expect(response.status(), `POST ${url}: ${await response.text()}`).toBe(201);
    return (await response.json()) as T;
  }

  /** The page's zones on the server, by name (GET …/children/?recursive=true). */
  async zones(pageId: string): Promise<Zone[]> {
    const list = await this.get<{ results: ApiElement[] }>(
      `/elements/${pageId}/children/?recursive=true&page_size=500`,
    );
    return list.results.map(zoneOf).sort((a, b) => a.name.localeCompare(b.name));
  }

  /** One element on the server (GET /element/{id}/), or null once it is gone. */
  async zone(id: string): Promise<Zone | null> {
    const response = await this.page.request.get(`/api/v1/element/${id}/`);
    if (response.status() === 404) return null;
    expect(response.status()).toBe(200);
    return zoneOf((await response.json()) as ApiElement);
  }

  async createZone(blank: BlankPage, name: string, type: string, polygon: Point[]): Promise<Zone> {
    const created = await this.post<ApiElement>('/elements/create/', {
      corpus: blank.corpusId,
      parent: blank.pageId,
      image: blank.imageId,
      type,
      name,
      polygon,
    });
    return zoneOf(created);
  }

  async addMember(corpusId: string, email: string, level: 10 | 50 | 100): Promise<void> {
    await this.post('/memberships/', { corpus_id: corpusId, user_email: email, level });
  }
}

export async function logIn(page: Page, email: string): Promise<void> {
  await page.goto('/user/login');
  await new AccountPages(page).logIn(email, PASSWORD);
  await expect(page).toHaveURL(/\/browse\/$/);
}

/** A new user of their own, logged in, administering a new project of one page with no zones. */
export async function signInWithBlankPage(
  page: Page,
  projectName: string,
  emailPrefix: string,
): Promise<BlankPage> {
  const email = uniqueEmail(emailPrefix);
  createUser(email, PASSWORD);
  const corpusId = importWithCli(PAGE_IMAGE, `${projectName} ${email}`, email);
  await logIn(page, email);
  const api = new ServerApi(page);
  const pages = await api.get<{ results: ApiElement[] }>(`/corpus/${corpusId}/elements/?type=page`);
  const element = pages.results[0]!;
  const image = element.zone!.image;
  return {
    email,
    corpusId,
    pageId: element.id,
    imageId: image.id,
    width: image.width,
    height: image.height,
  };
}

/** Whether two polygons match point for point within `tolerance` image pixels. */
export function near(actual: Point[], expected: Point[], tolerance = 5): boolean {
  return (
    actual.length === expected.length &&
    actual.every(
      ([x, y], i) =>
        Math.abs(x - expected[i]![0]) <= tolerance && Math.abs(y - expected[i]![1]) <= tolerance,
    )
  );
}

/** The polygon as a set of points, whatever the starting vertex and direction. */
export function sameShape(actual: Point[], expected: Point[], tolerance = 5): boolean {
  if (actual.length !== expected.length) return false;
  return expected.every(([x, y]) =>
    actual.some(([ax, ay]) => Math.abs(ax - x) <= tolerance && Math.abs(ay - y) <= tolerance),
  );
}

/** The image's displayed box inside the overlay canvas, in CSS pixels. */
interface ImageRect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/**
 * The element page in annotation mode, as a user works it: the toggle, the tools panel, the
 * forms, and the pointer on the image. Image coordinates become screen positions through the
 * page's own outline, which the overlay draws along the image's edges: wherever the layout puts
 * the viewer, a point is placed where the user would see it.
 */
export class AnnotationPage {
  readonly toggle: Locator;
  readonly panel: Locator;
  readonly overlay: Locator;
  readonly navbar: Locator;
  private rect: ImageRect | null = null;
  /** The canvas size the image was seen at. */
  private size = '';

  constructor(
    readonly page: Page,
    readonly blank: Pick<BlankPage, 'pageId' | 'width' | 'height'>,
  ) {
    this.toggle = page.getByRole('button', { name: 'Annotation mode' });
    this.panel = page.getByRole('region', { name: 'Annotation tools' });
    this.overlay = page.getByTestId('zone-overlay');
    this.navbar = page.getByRole('navigation', { name: 'Main' });
  }

  async open(): Promise<void> {
    await this.page.goto(`/element/${this.blank.pageId}`);
    await expect(this.toggle).toBeVisible();
    await this.settle();
  }

  async turnOn(): Promise<void> {
    await this.toggle.click();
    await expect(this.toggle).toHaveAttribute('aria-pressed', 'true');
    await expect(this.panel).toBeVisible();
    // The panel narrows the viewer: positions are read again once the image stops moving.
    await this.settle();
  }

  tool(name: string): Locator {
    return this.panel
      .getByRole('toolbar', { name: 'Tools' })
      .getByRole('button', { name, exact: true });
  }

  async chooseTool(name: string): Promise<void> {
    await this.tool(name).click();
    await expect(this.tool(name)).toHaveAttribute('aria-pressed', 'true');
  }

  batchSwitch(label: string): Locator {
    return this.panel.getByRole('switch', { name: label });
  }

  async setDefaultType(label: string): Promise<void> {
    await this.panel.getByLabel('Default element type').selectOption({ label });
  }

  dialog(name: string): Locator {
    return this.page.getByRole('dialog', { name });
  }

  /** A modal is open: its title shows (the dialog node itself has no box of its own). */
  async expectOpen(name: string): Promise<Locator> {
    const dialog = this.dialog(name);
    await expect(dialog.getByText(name, { exact: true })).toBeVisible();
    return dialog;
  }

  async expectClosed(name: string): Promise<void> {
    await expect(this.dialog(name)).toHaveCount(0);
  }

  notification(text: string): Locator {
    return this.page.getByRole('alert').filter({ hasText: text });
  }

  /** The outline's box: pixels of its orange (#f59e0b) on the overlay canvas. */
  private async outlineRect(): Promise<ImageRect | null> {
    return this.overlay.evaluate((canvas: HTMLCanvasElement) => {
      const context = canvas.getContext('2d');
      if (!context || canvas.width === 0) return null;
      const { width, height } = canvas;
      const { data } = context.getImageData(0, 0, width, height);
      let [left, top, right, bottom] = [Infinity, Infinity, -Infinity, -Infinity];
      for (let y = 0; y < height; y += 1) {
        for (let x = 0; x < width; x += 1) {
          const i = (y * width + x) * 4;
          const [r, g, b, a] = [data[i]!, data[i + 1]!, data[i + 2]!, data[i + 3]!];
          if (a < 128 || Math.abs(r - 245) > 20 || Math.abs(g - 158) > 20 || b > 60) continue;
          left = Math.min(left, x);
          right = Math.max(right, x);
          top = Math.min(top, y);
          bottom = Math.max(bottom, y);
        }
      }
      if (left === Infinity) return null;
      const ratio = width / canvas.getBoundingClientRect().width;
      // The 2 px line is centred on the edge: its first pixel starts a pixel before it.
      return {
        left: (left + 1) / ratio,
        top: (top + 1) / ratio,
        right: right / ratio,
        bottom: bottom / ratio,
      };
    });
  }

  /** Waits for the image to stand still (opened, resized, panned), then reads where it is. */
  async settle(): Promise<void> {
    let previous = '';
    let read: { rect: ImageRect | null; size: string } = { rect: null, size: '' };
    await expect
      .poll(
        async () => {
          const box = await this.overlay.boundingBox();
          read = { rect: await this.outlineRect(), size: `${box?.width}x${box?.height}` };
          const current = JSON.stringify(read);
          const still = read.rect !== null && current === previous;
          previous = current;
          return still;
        },
        { intervals: [100, 150, 250], timeout: 15_000 },
      )
      .toBe(true);
    this.rect = read.rect;
    this.size = read.size;
  }

  /** Where the image shows now, in CSS pixels inside the canvas (for pan checks). */
  async imageRect(): Promise<ImageRect> {
    await this.settle();
    return this.rect!;
  }

  /**
   * The screen position (page CSS pixels) of an image point. The viewer resized since the image
   * was last seen (a panel came or went): it is looked at again first.
   */
  async at([x, y]: Point): Promise<{ x: number; y: number }> {
    let box = (await this.overlay.boundingBox())!;
    if (!this.rect || `${box.width}x${box.height}` !== this.size) {
      await this.settle();
      box = (await this.overlay.boundingBox())!;
    }
    const { left, top, right, bottom } = this.rect!;
    return {
      x: box.x + left + (x / this.blank.width) * (right - left),
      y: box.y + top + (y / this.blank.height) * (bottom - top),
    };
  }

  async click(point: Point): Promise<void> {
    const { x, y } = await this.at(point);
    await this.page.mouse.click(x, y);
  }

  async doubleClick(point: Point): Promise<void> {
    const { x, y } = await this.at(point);
    await this.page.mouse.dblclick(x, y);
  }

  /** Presses at one image point, moves in steps to another and releases there. */
  async drag(from: Point, to: Point): Promise<void> {
    const start = await this.at(from);
    const end = await this.at(to);
    await this.page.mouse.move(start.x, start.y);
    await this.page.mouse.down();
    await this.page.mouse.move(end.x, end.y, { steps: 8 });
    await this.page.mouse.up();
  }

  /** Clicks the polygon's points one by one (the polygon tool on). */
  async clickPoints(points: Point[]): Promise<void> {
    for (const point of points) await this.click(point);
  }

  /** Fills and sends the creation form a drawn shape opens. */
  async createWithForm(name: string, typeLabel: string, submit: 'enter' | 'button' = 'enter') {
    const form = await this.expectOpen('Create an annotation');
    await form.getByLabel('Name').fill(name);
    await form.getByLabel('Type').selectOption({ label: typeLabel });
    if (submit === 'enter') await form.getByLabel('Name').press('Enter');
    else await form.getByRole('button', { name: 'Create' }).click();
    await this.expectClosed('Create an annotation');
  }

  /** Selects a zone with the select tool by clicking inside it. */
  async select(point: Point, name: string): Promise<void> {
    await this.click(point);
    await expect(this.page.getByText(`Selected: ${name}`)).toBeVisible();
  }

  /** The outbox is empty: every edit made here reached the server. */
  async synced(): Promise<void> {
    await expect(this.navbar.getByText(/\d+ pending/)).toBeHidden({ timeout: 20_000 });
  }

  async shot(name: string): Promise<void> {
    await this.page.screenshot({ path: `/tmp/annot-${name}.png` });
  }
}
