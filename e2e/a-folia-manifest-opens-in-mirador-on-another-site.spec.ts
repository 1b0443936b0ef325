import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { expect, test, type Page, type Response } from '@playwright/test';
import { PAGE_IMAGE, PASSWORD } from './support/annotation';
import { createUser, importWithCli, uniqueEmail } from './support/server';

/** Mirador as another site would take it from npm: its standalone build. */
const MIRADOR = path.join('node_modules', 'mirador', 'dist', 'mirador.min.js');

interface Site {
  origin: string;
  close(): Promise<void>;
}

/**
 * Another site: a page of its own, on another origin than Folia's (another host and port),
 * that opens one manifest in Mirador.
 */
function viewerSite(manifestUrl: string): Promise<Site> {
  const html = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>A viewer on another site</title>
    <style>html, body { margin: 0; height: 100%; } #viewer { position: absolute; inset: 0; }</style>
  </head>
  <body>
    <div id="viewer"></div>
    <script src="/mirador.min.js"></script>
    <script>
      Mirador.viewer({ id: 'viewer', windows: [{ manifestId: ${JSON.stringify(manifestUrl)} }] });
    </script>
  </body>
</html>`;
  const server = http.createServer((request, response) => {
    if (request.url === '/') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(html);
    } else if (request.url === '/mirador.min.js') {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
      fs.createReadStream(MIRADOR).pipe(response);
    } else {
      response.writeHead(404);
      response.end();
    }
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        // localhost, where Folia is at 127.0.0.1: another host as well as another port.
        origin: `http://localhost:${port}`,
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    }),
  );
}

/**
 * What the viewer's canvas shows, read from a screenshot: the share of paper (the page's
 * near-white, brighter than Mirador's grey background, 238, and bars, 247) and of ink (dark print).
 */
async function shown(page: Page): Promise<{ paper: number; ink: number }> {
  const canvas = page.locator('.openseadragon-canvas canvas').first();
  if (!(await canvas.isVisible())) return { paper: 0, ink: 0 };
  const { data, info } = await sharp(await canvas.screenshot())
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  let paper = 0;
  let ink = 0;
  for (let i = 0; i < data.length; i += 3) {
    const low = Math.min(data[i]!, data[i + 1]!, data[i + 2]!);
    const high = Math.max(data[i]!, data[i + 1]!, data[i + 2]!);
    if (low >= 250) paper += 1;
    if (high < 110) ink += 1;
  }
  const pixels = info.width * info.height;
  return { paper: paper / pixels, ink: ink / pixels };
}

test('a public project’s manifest opens in Mirador on another site, which shows its page', async ({
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('curator');
  createUser(email, PASSWORD);
  // A folder of one page, imported from the command line.
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'folia-mirador-'));
  fs.copyFileSync(PAGE_IMAGE, path.join(folder, path.basename(PAGE_IMAGE)));
  const corpusId = importWithCli(folder, `Laube ${email}`, email);

  // Its owner makes the project public, through the API.
  const login = await request.post('/api/v1/user/login/', {
    data: { email, password: PASSWORD },
  });
  expect(login.status(), await login.text()).toBeLessThan(300);
  const csrf = (await request.storageState()).cookies.find((c) => c.name === 'arkindex.csrf');
  const patched = await request.patch(`/api/v1/corpus/${corpusId}/`, {
    data: { public: true },
    headers: { 'x-csrftoken': csrf?.value ?? '' },
  });
  expect(patched.status(), await patched.text()).toBe(200);
  const folders = await request.get(`/api/v1/corpus/${corpusId}/elements/?type=folder`);
  const folderId = ((await folders.json()) as { results: { id: string }[] }).results[0]!.id;
  const manifestUrl = `${baseURL}/api/v1/iiif/${folderId}/manifest/`;

  const site = await viewerSite(manifestUrl);
  // Another site's visitor: no Folia session in this browser.
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('requestfailed', (failed) =>
      problems.push(`${failed.url()}: ${failed.failure()?.errorText ?? 'failed'}`),
    );
    const fromFolia = (pattern: RegExp) => (response: Response) =>
      response.url().startsWith(`${baseURL}/`) && pattern.test(new URL(response.url()).pathname);
    const within = { timeout: 30_000 };
    const manifest = page.waitForResponse(
      fromFolia(/^\/api\/v1\/iiif\/[^/]+\/manifest\/$/),
      within,
    );
    const info = page.waitForResponse(fromFolia(/^\/iiif\/[^/]+\/info\.json$/), within);
    const tile = page.waitForResponse(
      (response) =>
        fromFolia(/^\/iiif\/[^/]+\/[^/]+\/[^/]+\/0\/default\.jpg$/)(response) &&
        response.status() === 200,
      within,
    );

    await page.goto(site.origin);
    await expect(page).toHaveTitle('A viewer on another site');

    const manifestAnswer = await manifest;
    expect(manifestAnswer.status()).toBe(200);
    expect(manifestAnswer.headers()['access-control-allow-origin']).toBe('*');
    const infoAnswer = await info;
    expect(infoAnswer.status()).toBe(200);
    expect(infoAnswer.headers()['access-control-allow-origin']).toBe('*');
    expect((await tile).headers()['content-type']).toBe('image/jpeg');

    // The title page, white with black print, fills a good part of the viewer once its tiles
    // are drawn (about a third of it paper and half a percent print at this size).
    try {
      await expect
        .poll(
          async () => {
            const { paper, ink } = await shown(page);
            return paper > 0.2 && ink > 0.002;
          },
          { timeout: 30_000 },
        )
        .toBe(true);
    } catch (error) {
      throw new Error(`Mirador drew no page; the browser said: ${problems.join(' | ')}`, {
        cause: error,
      });
    }
    await page.screenshot({ path: test.info().outputPath('mirador.png') });
  } finally {
    await context.close();
    await site.close();
  }
});
