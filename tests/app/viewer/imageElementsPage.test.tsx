// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  apiError,
  elementsApi,
  isolateEachTest,
  makeChildren,
  makeCorpus,
  makeImage,
  makeUser,
  renderApp,
} from '../support/elementsApi';

isolateEachTest();

describe('image elements page', () => {
  it("shows the image's details and the elements on it, page by page", async () => {
    const corpus = makeCorpus();
    const image = makeImage({ width: 5680, height: 4180, status: 'checked' });
    const onImage = makeChildren(corpus, 23, (i) => ({
      name: `Zone ${i + 1}`,
      type: 'text_line',
      image,
    }));
    const api = elementsApi({
      corpus,
      elements: onImage,
      images: [image],
      imageElements: { [image.id]: onImage },
    });
    const { router } = renderApp(`/image/${image.id}`, makeUser());

    const details = await screen.findByRole('table', { name: 'Image details' });
    const cells = within(details)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells.slice(0, 4)).toEqual([image.id, 'checked', '5680', '4180']);
    expect(
      within(details).getByRole('link', { name: 'Full IIIF image' }).getAttribute('href'),
    ).toBe(`${image.url}/full/full/0/default.jpg`);
    expect(within(details).getByRole('img').getAttribute('src')).toBe(
      `${image.url}/full/,200/0/default.jpg`,
    );

    const list = await screen.findByRole('table', { name: 'Elements on this image' });
    expect(within(list).getAllByRole('link')).toHaveLength(20);
    expect(within(list).getByRole('link', { name: 'Zone 1' }).getAttribute('href')).toBe(
      `/element/${onImage[0]!.id}`,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Go to page 2' }));
    expect(await screen.findByRole('link', { name: 'Zone 23' })).toBeTruthy();
    expect(router.state.location.search).toEqual({ page: 2 });
    expect(
      api.calls
        .filter((call) => call.path === `/image/${image.id}/elements/`)
        .map((c) => c.query.get('page')),
    ).toEqual(['1', '2']);
  });

  it('shows "Media loading failed" when the thumbnail cannot be loaded', async () => {
    const corpus = makeCorpus();
    const image = makeImage();
    elementsApi({ corpus, elements: [], images: [image] });
    renderApp(`/image/${image.id}`, makeUser());
    const details = await screen.findByRole('table', { name: 'Image details' });
    fireEvent.error(within(details).getByRole('img'));
    expect(await within(details).findByText('Media loading failed')).toBeTruthy();
  });

  it("reads 'No elements found on this image.' when nothing is drawn on it", async () => {
    const corpus = makeCorpus();
    const image = makeImage();
    elementsApi({ corpus, elements: [], images: [image] });
    renderApp(`/image/${image.id}`, makeUser());
    expect(await screen.findByText('No elements found on this image.')).toBeTruthy();
  });

  it("reads 'This element is not on an image.' for an unknown image", async () => {
    const corpus = makeCorpus();
    const image = makeImage();
    elementsApi({ corpus, elements: [], images: [] });
    renderApp(`/image/${image.id}`, makeUser());
    expect(await screen.findByText('This element is not on an image.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it("reads 'An error occurred retrieving image details.' when the server fails", async () => {
    const corpus = makeCorpus();
    const image = makeImage();
    elementsApi({
      corpus,
      elements: [],
      images: [image],
      overrides: { [`/image/${image.id}/`]: () => apiError(500, 'Database unavailable') },
    });
    renderApp(`/image/${image.id}`, makeUser());
    expect(await screen.findByText('An error occurred retrieving image details.')).toBeTruthy();
    // The red notification carries the server's reason too.
    const notification = await screen.findByText(
      'An error occurred retrieving image details. Database unavailable',
    );
    expect(notification.closest('[data-type="error"]')).toBeTruthy();
  });

  it('asks anonymous visitors to log in first', async () => {
    const corpus = makeCorpus();
    const image = makeImage();
    elementsApi({ corpus, elements: [], images: [image] });
    renderApp(`/image/${image.id}`, null);
    expect(await screen.findByTestId('elsewhere')).toHaveProperty(
      'textContent',
      `Now at /user/login?next=${encodeURIComponent(`/image/${image.id}`)}`,
    );
  });
});
