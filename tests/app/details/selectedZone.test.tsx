// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ViewerFactoryContext } from '@/features/viewer/viewerContext';
import type { Transcription } from '@/api/types';
import { annotationStore, setMode, updateAnnotation } from '@/features/annotation/state';
import { isolateDetailsTests, json, metadata, transcription } from '../support/details';
import {
  elementsApi,
  makeCorpus,
  makeElement,
  makeImage,
  makeUser,
  rect,
  renderApp,
  type Call,
} from '../support/elementsApi';
import { fakeViewerFactory } from '../support/fakeViewer';
import { installRecordingCanvas } from '../support/recordingCanvas';

isolateDetailsTests();
beforeEach(() => {
  installRecordingCanvas();
  updateAnnotation((state) => setMode(state, false));
});

const list = <T,>(results: T[]) => ({ count: results.length, next: null, previous: null, results });

/**
 * A page with three lines, each with its own reading and metadata; the fake viewer shows the
 * image at 0.4, so line i covers screen (40, 40 + 40i) to (360, 60 + 40i).
 */
function pageWithLines() {
  const corpus = makeCorpus();
  const image = makeImage();
  const page = makeElement(corpus, { name: 'Folio 12', image });
  const lines = Array.from({ length: 3 }, (_, i) =>
    makeElement(corpus, {
      name: `Line ${i + 1}`,
      type: 'text_line',
      image,
      polygon: rect(100, 100 + i * 100, 800, 50),
    }),
  );
  const readings: Record<string, Transcription[]> = {
    [page.id]: [transcription({ text: 'The whole page' })],
    [lines[1]!.id]: [transcription({ text: 'Verlag von Heinrich Hoff.' })],
  };
  const posted: Call[] = [];
  const overrides = Object.fromEntries(
    [page, ...lines].flatMap((element) => [
      [
        `GET /element/${element.id}/transcriptions/`,
        () => json(200, list(readings[element.id] ?? [])),
      ],
      [
        `GET /element/${element.id}/metadata/`,
        () => json(200, element === lines[1] ? [metadata({ name: 'Folio', value: '12r' })] : []),
      ],
      [
        `POST /element/${element.id}/transcription/`,
        (call: Call) => {
          posted.push(call);
          const body = call.body as { text: string };
          return json(201, transcription({ text: body.text }));
        },
      ],
    ]),
  );
  elementsApi({ corpus, elements: [page, ...lines], children: { [page.id]: lines }, overrides });
  return { page, lines, posted };
}

function openPage(url: string) {
  const viewers = fakeViewerFactory();
  const view = renderApp(url, makeUser(), (ui) => (
    <ViewerFactoryContext.Provider value={viewers.factory}>{ui}</ViewerFactoryContext.Provider>
  ));
  return { ...view, viewers };
}

const panel = () => screen.getByRole('complementary', { name: 'Element details' });
/** Waits for the panel, whichever element's it is then, to show a heading or a text. */
const heading = (name: string) =>
  waitFor(() => within(panel()).getByRole('heading', { name }), { timeout: 3000 });
const text = (value: string) => waitFor(() => within(panel()).getByText(value), { timeout: 3000 });

/** A click on the image at a screen point, as the overlay takes it. */
function clickImage(element: HTMLElement, x: number, y: number) {
  fireEvent.pointerDown(element, { clientX: x, clientY: y, button: 0 });
  fireEvent.pointerUp(element, { clientX: x, clientY: y, button: 0 });
}

describe('A zone selected on the page', () => {
  it('shows its details in the panel, editable there, until the page’s come back', async () => {
    const { page, lines, posted } = pageWithLines();
    const { viewers, router } = openPage(`/element/${page.id}`);
    const user = userEvent.setup();
    await waitFor(() => expect(viewers.created).toHaveLength(1), { timeout: 5000 });
    const viewer = viewers.last;
    act(() => viewer.open());
    expect(await text('The whole page')).toBeTruthy();

    clickImage(viewer.element, 100, 90);
    await waitFor(() => expect(router.state.location.search).toEqual({ highlight: lines[1]!.id }));
    // The line's name and type, its reading and its metadata, in the panel.
    expect(await heading('Line 2')).toBeTruthy();
    expect(within(panel()).getByText('Text line')).toBeTruthy();
    expect(await text('Verlag von Heinrich Hoff.')).toBeTruthy();
    expect(await text('12r')).toBeTruthy();
    expect(within(panel()).queryByText('The whole page')).toBeNull();

    // Corrected there: the transcription goes to the line.
    const form = within(panel()).getByRole('region', { name: 'New transcription' });
    await user.type(within(form).getByLabelText('Text'), 'VERLAG VON HEINRICH HOFF.{Enter}');
    await waitFor(() =>
      expect(posted.map((call) => [call.path, (call.body as { text: string }).text])).toEqual([
        [`/element/${lines[1]!.id}/transcription/`, 'VERLAG VON HEINRICH HOFF.'],
      ]),
    );

    // Saved: the form empties. (Before that the text field may take the focus back, and Esc
    // typed into a field is the field's, not the panel's.)
    await waitFor(() =>
      expect((within(form).getByLabelText('Text') as HTMLTextAreaElement).value).toBe(''),
    );

    // Esc goes back to the page's details.
    await user.click(within(panel()).getByRole('heading', { name: 'Line 2' }));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(router.state.location.search).toEqual({}));
    expect(await text('The whole page')).toBeTruthy();
    expect(within(panel()).queryByRole('heading', { name: 'Line 2' })).toBeNull();

    // So does the Back button, and a click on the image beside every zone.
    clickImage(viewer.element, 100, 130);
    expect(await heading('Line 3')).toBeTruthy();
    await user.click(within(panel()).getByRole('button', { name: 'Back to page' }));
    expect(await text('The whole page')).toBeTruthy();
    clickImage(viewer.element, 100, 50);
    expect(await heading('Line 1')).toBeTruthy();
    clickImage(viewer.element, 600, 500);
    expect(await text('The whole page')).toBeTruthy();
  });

  it('shows its details in annotation mode too, where Esc clears it', async () => {
    const { page, lines } = pageWithLines();
    const { router } = openPage(`/element/${page.id}?highlight=${lines[1]!.id}`);
    const user = userEvent.setup();
    expect(await heading('Line 2')).toBeTruthy();
    await user.click(await screen.findByRole('button', { name: 'Annotation mode' }));
    await waitFor(() => expect(annotationStore.get().on).toBe(true));
    expect(await text('Verlag von Heinrich Hoff.')).toBeTruthy();
    // Under the tools, beside the image: selecting adds no column that would narrow it.
    const tools = screen.getByRole('region', { name: 'Annotation tools' });
    expect(tools.closest('aside')!.contains(panel())).toBe(true);
    expect(screen.getAllByRole('complementary', { name: 'Element details' })).toHaveLength(1);

    await user.keyboard('{Escape}');
    await waitFor(() => expect(router.state.location.search).toEqual({}));
    // Annotation mode keeps its tools beside the image, without the page's details.
    await waitFor(() =>
      expect(screen.queryByRole('complementary', { name: 'Element details' })).toBeNull(),
    );
  });
});
