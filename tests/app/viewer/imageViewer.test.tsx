// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ViewerFactoryContext } from '@/features/viewer/viewerContext';
import type { Element, ImageInfo, User } from '@/api/types';
import {
  elementsApi,
  isolateEachTest,
  makeCorpus,
  makeElement,
  makeImage,
  makeUser,
  rect,
  renderApp,
} from '../support/elementsApi';
import { fakeViewerFactory, type FakeViewer } from '../support/fakeViewer';
import { installRecordingCanvas, type RecordingContext } from '../support/recordingCanvas';

let ctx: RecordingContext;

isolateEachTest();
beforeEach(() => {
  ctx = installRecordingCanvas();
});

/**
 * A 1000×1500 page with five lines, 800×50 pixels each, 100 pixels apart; the fake viewer
 * starts at scale 0.4, so line i covers screen (40, 40 + 40i) to (360, 60 + 40i).
 */
function pageWithLines(options: { image?: ImageInfo; page?: Partial<Element> } = {}) {
  const corpus = makeCorpus({ public: true });
  const image = options.image ?? makeImage();
  const page = makeElement(corpus, { name: 'Folio 12', image, ...options.page });
  const lines = Array.from({ length: 5 }, (_, i) =>
    makeElement(corpus, {
      name: `Line ${i + 1}`,
      type: 'text_line',
      image,
      polygon: rect(100, 100 + i * 100, 800, 50),
    }),
  );
  // A child on another image must not be drawn on this one.
  const elsewhere = makeElement(corpus, {
    name: 'Elsewhere',
    type: 'text_line',
    image: makeImage(),
  });
  const api = elementsApi({
    corpus,
    elements: [page, ...lines, elsewhere],
    children: { [page.id]: [...lines, elsewhere] },
  });
  return { corpus, image, page, lines, api };
}

function openPage(url: string, user: User | null = makeUser()) {
  const viewers = fakeViewerFactory();
  const view = renderApp(url, user, (ui) => (
    <ViewerFactoryContext.Provider value={viewers.factory}>{ui}</ViewerFactoryContext.Provider>
  ));
  return { ...view, viewers };
}

async function openedViewer(viewers: ReturnType<typeof fakeViewerFactory>): Promise<FakeViewer> {
  await waitFor(() => expect(viewers.created).toHaveLength(1));
  const viewer = viewers.last;
  act(() => viewer.open());
  return viewer;
}

/** The viewer open with the five lines drawn: what a user sees before pointing at one. */
async function linesShown(viewers: ReturnType<typeof fakeViewerFactory>): Promise<FakeViewer> {
  const viewer = await openedViewer(viewers);
  await waitFor(() => expect(drawnZones()).toHaveLength(5));
  return viewer;
}

/** Solid (zone) paths of the last drawn frame, by their first screen point. */
const drawnZones = () => ctx.frame.filter((path) => !path.dashed).map((path) => path.points[0]);
/**
 * The zones a user sees on the 800×600 canvas: those drawn meeting it. Zones just beyond the
 * edges are drawn too, onto the kept layer that serves the next frames of a pan.
 */
const zonesInView = () =>
  ctx.frame
    .filter((path) => !path.dashed)
    .filter((path) => {
      const xs = path.points.map(([x]) => x);
      const ys = path.points.map(([, y]) => y);
      return (
        Math.max(...xs) >= 0 &&
        Math.min(...xs) <= 800 &&
        Math.max(...ys) >= 0 &&
        Math.min(...ys) <= 600
      );
    })
    .map((path) => path.points[0]);

describe('image viewer on the element page', () => {
  it("opens the element's IIIF image and draws its children's zones on it", async () => {
    const { page, image } = pageWithLines();
    const { viewers } = openPage(`/element/${page.id}`);
    const viewer = await openedViewer(viewers);

    expect(viewer.options?.tileSource).toBe(`${image.url}/info.json`);
    expect(viewer.options?.crossOriginPolicy).toBe('Anonymous');
    await waitFor(() => expect(drawnZones()).toHaveLength(5));
    expect(drawnZones()).toEqual([0, 1, 2, 3, 4].map((i) => [40, 40 + 40 * i]));
    // The page's own polygon, outlined.
    expect(ctx.frame.filter((path) => path.dashed)).toHaveLength(1);
  });

  it('shows the zones in view when the viewport moves', async () => {
    const { page } = pageWithLines();
    const { viewers } = openPage(`/element/${page.id}`);
    const viewer = await linesShown(viewers);

    // At 100 %, panned so the screen (600 px high) shows image y 250 to 850: line 1 (y 100
    // to 150) is out of view, line 2 (y 200 to 250) just touches it.
    act(() => viewer.setView(1, 0, -250));
    await waitFor(() =>
      expect(zonesInView()).toEqual([
        [100, -50],
        [100, 50],
        [100, 150],
        [100, 250],
      ]),
    );
    // Image y 460 to 1060: only line 5 (y 500 to 550).
    act(() => viewer.setView(1, 0, -460));
    await waitFor(() => expect(zonesInView()).toEqual([[100, 40]]));
  });

  it('names the zone under the pointer and selects it on click, in the address', async () => {
    const { page, lines } = pageWithLines();
    const { viewers, router } = openPage(`/element/${page.id}`);
    const viewer = await linesShown(viewers);

    fireEvent.pointerMove(viewer.element, { clientX: 100, clientY: 90 });
    expect(await screen.findByRole('tooltip')).toHaveProperty('textContent', 'Line 2 (Text line)');

    fireEvent.pointerDown(viewer.element, { clientX: 100, clientY: 90, button: 0 });
    fireEvent.pointerUp(viewer.element, { clientX: 101, clientY: 91, button: 0 });
    await waitFor(() => expect(router.state.location.search).toEqual({ highlight: lines[1]!.id }));
    expect(await screen.findByText('Line 2', { selector: 'span' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Open element' }).getAttribute('href')).toBe(
      `/element/${lines[1]!.id}`,
    );
    await waitFor(() => expect(ctx.frame.some((path) => path.lineWidth === 3)).toBe(true));

    // A click beside every zone clears the selection.
    fireEvent.pointerDown(viewer.element, { clientX: 600, clientY: 500, button: 0 });
    fireEvent.pointerUp(viewer.element, { clientX: 600, clientY: 500, button: 0 });
    await waitFor(() => expect(router.state.location.search).toEqual({}));
    expect(screen.queryByRole('link', { name: 'Open element' })).toBeNull();
  });

  it('does not select when the pointer dragged (a pan)', async () => {
    const { page } = pageWithLines();
    const { viewers, router } = openPage(`/element/${page.id}`);
    const viewer = await linesShown(viewers);
    // Pressed on line 2, released on line 3: a pan, not a click on either.
    fireEvent.pointerDown(viewer.element, { clientX: 100, clientY: 90, button: 0 });
    fireEvent.pointerUp(viewer.element, { clientX: 160, clientY: 130, button: 0 });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(router.state.location.search).toEqual({});
  });

  it('shows the highlighted child of the address on arrival', async () => {
    const { page, lines } = pageWithLines();
    const { viewers } = openPage(`/element/${page.id}?highlight=${lines[3]!.id}`);
    const viewer = await openedViewer(viewers);
    expect(await screen.findByText('Line 4', { selector: 'span' })).toBeTruthy();
    await waitFor(() => expect(viewer.fitted).toHaveLength(1));
    // Line 4 (x 100–900, y 400–450) centred, twice its size, and at least a fifth of the
    // 1000×1500 image each way.
    expect(viewer.fitted[0]).toEqual({ x: -300, y: 275, width: 1600, height: 300 });
  });

  it('links to the source image, and to the image elements page for verified users only', async () => {
    const { page, image } = pageWithLines();
    openPage(`/element/${page.id}`);
    const source = await screen.findByRole('link', { name: 'View source image' });
    expect(source.getAttribute('href')).toBe(`${image.url}/full/full/0/default.jpg`);
    expect(
      screen.getByRole('link', { name: 'List elements on this image' }).getAttribute('href'),
    ).toBe(`/image/${image.id}`);
    cleanup();

    openPage(`/element/${page.id}`, makeUser({ verified_email: false }));
    await screen.findByRole('link', { name: 'View source image' });
    expect(screen.queryByRole('link', { name: 'List elements on this image' })).toBeNull();
  });

  it('refuses an image with invalid dimensions, showing its address and size', async () => {
    const image = makeImage({ width: 0, height: 1500 });
    const { page } = pageWithLines({ image });
    const { viewers } = openPage(`/element/${page.id}`);
    expect(
      await screen.findByText(
        'The IIIF image cannot be displayed because it has invalid dimensions.',
      ),
    ).toBeTruthy();
    expect(screen.getByText(image.url)).toBeTruthy();
    expect(screen.getByText('Size: 0 × 1500')).toBeTruthy();
    expect(viewers.created).toHaveLength(0);
  });

  it('reports image server failures and a size mismatch in banners', async () => {
    const { page } = pageWithLines();
    const { viewers } = openPage(`/element/${page.id}`);
    await waitFor(() => expect(viewers.created).toHaveLength(1));
    const viewer = viewers.last;

    // As OpenSeadragon words it when the image server does not answer.
    act(() =>
      viewer.emit({
        type: 'open-failed',
        message: `HTTP 0 attempting to load TileSource: ${viewer.options!.tileSource}`,
      }),
    );
    // Said in words, over the image, not as the viewer's raw message.
    const title = await screen.findByText('Media loading failed');
    const notice = title.closest<HTMLElement>('[role="alert"]')!;
    // The viewer's box holds it, where the image would be.
    const viewerBox = screen.getByTestId('image-viewer').parentElement!.parentElement!;
    expect(viewerBox.contains(notice)).toBe(true);
    expect(notice.textContent).toBe(
      'Media loading failed' +
        'An error occurred retrieving image details.' +
        'The image server could not be reached (no answer, or an answer this page may not read).',
    );

    act(() => viewer.open({ width: 500, height: 750 }));
    expect(await screen.findByText(/reports a size of 500 × 750 pixels/)).toBeTruthy();
    expect(screen.queryByText('An error occurred retrieving image details.')).toBeNull();
    // Zones are scaled to the size the server reports.
    await waitFor(() => expect(drawnZones()[0]).toEqual([20, 20]));

    act(() => viewer.emit({ type: 'tile-failed', message: 'Image load aborted' }));
    expect(
      await screen.findByText('Some parts of the image could not be loaded from the image server.'),
    ).toBeTruthy();
  });

  it('zooms to the fixed levels, relative to the fit zoom', async () => {
    const { page } = pageWithLines();
    const { viewers } = openPage(`/element/${page.id}`);
    const viewer = await openedViewer(viewers);
    // 1000×1500 in 800×600: the fit zoom is 0.5.
    act(() => viewer.zoomTo(0.5));
    const slider = await screen.findByRole('slider', { name: 'Zoom' });
    expect(slider.getAttribute('aria-valuetext')).toBe('100 %');

    fireEvent.change(slider, { target: { value: '4' } });
    expect(viewer.zoom).toBeCloseTo(1.25);
    await waitFor(() => expect(slider.getAttribute('aria-valuetext')).toBe('250 %'));

    await userEvent.click(screen.getByRole('button', { name: 'Zoom in' }));
    expect(viewer.zoom).toBeCloseTo(1.75);

    // A wheel zoom lands between levels; the slider shows the nearest.
    act(() => viewer.zoomTo(0.5 * 1.45));
    await waitFor(() => expect(slider.getAttribute('aria-valuetext')).toBe('133 %'));
    await userEvent.click(screen.getByRole('button', { name: 'Zoom out' }));
    expect(viewer.zoom).toBeCloseTo(0.665);
  });

  it("starts in the element's orientation and rotates and mirrors without a new viewer", async () => {
    const { page } = pageWithLines({ page: { rotation_angle: 90, mirrored: true } });
    const { viewers } = openPage(`/element/${page.id}`);
    const viewer = await openedViewer(viewers);
    expect(viewer.options).toMatchObject({ degrees: 90, mirrored: true });

    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Rotate clockwise' }));
    expect(viewer.orientation).toEqual({ degrees: 180, mirrored: true });
    expect(within(screen.getByRole('region', { name: 'Image' })).getByText('180°')).toBeTruthy();
    const mirror = screen.getByRole('button', { name: 'Mirror' });
    expect(mirror.getAttribute('aria-pressed')).toBe('true');
    await user.click(mirror);
    expect(viewer.orientation).toEqual({ degrees: 180, mirrored: false });
    expect(mirror.getAttribute('aria-pressed')).toBe('false');
    await user.click(screen.getByRole('button', { name: 'Rotate counterclockwise' }));
    await user.click(screen.getByRole('button', { name: 'Rotate counterclockwise' }));
    expect(viewer.orientation).toEqual({ degrees: 0, mirrored: false });
    expect(viewer.homeCount).toBe(4);
    expect(viewers.created).toHaveLength(1);
  });

  it('destroys the viewer when the page goes', async () => {
    const { page } = pageWithLines();
    const { viewers, unmount } = openPage(`/element/${page.id}`);
    const viewer = await openedViewer(viewers);
    unmount();
    expect(viewer.destroyed).toBe(true);
  });
});
