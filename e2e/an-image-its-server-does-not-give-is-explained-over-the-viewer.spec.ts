import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { logIn, PASSWORD, ServerApi } from './support/annotation';
import { createUser, importWithCli, uniqueEmail } from './support/server';

/** An image server that is up but fails every request, readable across origins as real ones are. */
async function failingImageServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((_request, response) => {
    response.writeHead(503, {
      'access-control-allow-origin': '*',
      'content-type': 'text/plain',
    });
    response.end('Service Unavailable');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** An address no server answers on any more: a port opened, then closed. */
async function goneImageServer(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** A IIIF Presentation 2 manifest of one canvas per image service, named after the canvas. */
function manifest(canvases: { label: string; service: string }[]): unknown {
  return {
    '@context': 'http://iiif.io/api/presentation/2/context.json',
    '@id': 'https://example.org/iiif/failing/manifest',
    '@type': 'sc:Manifest',
    label: 'Failing images',
    sequences: [
      {
        '@type': 'sc:Sequence',
        canvases: canvases.map(({ label, service }, i) => ({
          '@id': `https://example.org/iiif/failing/canvas/${i + 1}`,
          '@type': 'sc:Canvas',
          label,
          width: 1200,
          height: 1800,
          images: [
            {
              '@type': 'oa:Annotation',
              motivation: 'sc:painting',
              resource: {
                '@id': `${service}/full/full/0/default.jpg`,
                '@type': 'dctypes:Image',
                service: {
                  '@context': 'http://iiif.io/api/image/2/context.json',
                  '@id': service,
                  profile: 'http://iiif.io/api/image/2/level1.json',
                },
              },
            },
          ],
        })),
      },
    ],
  };
}

async function openPageNamed(page: Page, corpusId: string, name: string): Promise<void> {
  const pages = await new ServerApi(page).get<{ results: { id: string; name: string }[] }>(
    `/corpus/${corpusId}/elements/?type=page`,
  );
  const found = pages.results.find((element) => element.name === name);
  expect(found, `page ${name}`).toBeTruthy();
  await page.goto(`/element/${found!.id}`);
  await expect(page.getByRole('heading', { name })).toBeVisible();
}

test('an image its server fails or never answers reads so, legibly, over the viewer', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const failing = await failingImageServer();
  const gone = await goneImageServer();
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'folia-failing-images-'));
  const file = path.join(folder, 'failing.json');
  fs.writeFileSync(
    file,
    JSON.stringify(
      manifest([
        { label: 'Server failing', service: `${failing.url}/iiif/2/folio-1` },
        { label: 'Server gone', service: `${gone}/iiif/2/folio-2` },
      ]),
    ),
  );
  const email = uniqueEmail('viewer');
  createUser(email, PASSWORD);
  const corpusId = importWithCli(file, `Failing images ${email}`, email);
  fs.rmSync(folder, { recursive: true, force: true });
  await logIn(page, email);

  const viewer = page.getByTestId('image-viewer').locator('xpath=../..');
  const notice = viewer.getByRole('alert').filter({ hasText: 'Media loading failed' });
  try {
    await test.step('a server answering 503', async () => {
      await openPageNamed(page, corpusId, 'Server failing');
      await expect(notice).toBeVisible();
      await expect(notice).toContainText('An error occurred retrieving image details.');
      await expect(notice).toContainText('The image server failed (HTTP 503).');
      // Dark text on a light card, whatever the viewer shows behind it.
      await expect(notice).toHaveCSS('background-color', 'rgb(255, 255, 255)');
      // The viewer's own message is gone.
      await expect(page.getByText(/Unable to open/)).toHaveCount(0);
      await expect(page.getByText(/\[object Object\]/)).toHaveCount(0);
      await page.screenshot({ path: test.info().outputPath('server-failing.png') });
    });

    await test.step('a server that does not answer at all', async () => {
      await openPageNamed(page, corpusId, 'Server gone');
      await expect(notice).toBeVisible();
      await expect(notice).toContainText('An error occurred retrieving image details.');
      await expect(notice).toContainText('The image server could not be reached');
      await expect(page.getByText(/Unable to open|HTTP 0/)).toHaveCount(0);
      await page.screenshot({ path: test.info().outputPath('server-gone.png') });
    });
  } finally {
    await failing.close();
  }
});
