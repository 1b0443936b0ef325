// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { KeyboardHelpDialog } from '@/features/shell/KeyboardHelpDialog';
import { Navbar } from '@/features/shell/Navbar';
import { closeKeyboardHelp } from '@/features/shell/keyboardHelp';
import { makeInfo, makeUser } from './fixtures';
import { renderInRouter } from './render';

afterEach(() => {
  act(() => closeKeyboardHelp());
  cleanup();
});

function renderWithFields() {
  render(
    <>
      <label>
        Name <input />
      </label>
      <label>
        Notes <textarea />
      </label>
      <div contentEditable suppressContentEditableWarning aria-label="Transcription" role="textbox">
        text
      </div>
      <KeyboardHelpDialog />
    </>,
  );
}

async function expectClosed() {
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
}

describe('keyboard help', () => {
  it('opens on ? and lists the shortcuts, then closes on Escape', async () => {
    const user = userEvent.setup();
    renderWithFields();
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.keyboard('?');
    const dialog = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    const rows = within(dialog)
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.textContent);
    expect(rows).toEqual([
      'Ctrl+←Go to the previous element',
      'Ctrl+→Go to the next element',
      'EscCancel the polygon being drawn',
      'EnterIn the annotation form, create or update the annotation',
      'mLoad more children or dataset elements',
      '?Show this help',
      'sAnnotation mode: select tool',
      'tAnnotation mode: edit type tool',
      'dAnnotation mode: delete tool',
      'rAnnotation mode: rectangle tool',
      'pAnnotation mode: polygon tool',
      'iAnnotation mode: median point tool',
      '←or↑or→or↓Annotation mode: move the selection by 1 pixel',
      'Shift+←or↑or→or↓Annotation mode: move the selection by 10 pixels',
      'DeleteAnnotation mode: delete the selected zone',
      'Ctrl+ZAnnotation mode: undo',
      'Ctrl+Shift+ZAnnotation mode: redo (or Ctrl+Y)',
    ]);
    await user.keyboard('{Escape}');
    await expectClosed();
  });

  it('closes with its close button', async () => {
    const user = userEvent.setup();
    renderWithFields();
    await user.keyboard('?');
    const dialog = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await expectClosed();
  });

  it('does not open while typing in an input, a textarea or an editable element', async () => {
    const user = userEvent.setup();
    renderWithFields();
    const input = screen.getByRole('textbox', { name: 'Name' });
    await user.type(input, 'why?');
    expect((input as HTMLInputElement).value).toBe('why?');
    await user.type(screen.getByRole('textbox', { name: 'Notes' }), 'a?');
    await user.click(screen.getByRole('textbox', { name: 'Transcription' }));
    await user.keyboard('?');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('does not open on Ctrl+?', async () => {
    const user = userEvent.setup();
    renderWithFields();
    await user.keyboard('{Control>}?{/Control}');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('opens from the user menu', async () => {
    const user = userEvent.setup();
    renderInRouter(
      <>
        <Navbar />
        <KeyboardHelpDialog />
      </>,
      { info: makeInfo(), user: makeUser() },
    );
    await user.click(await screen.findByRole('button', { name: 'Ada Lovelace' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Keyboard shortcuts' }));
    expect(await screen.findByRole('dialog', { name: 'Keyboard shortcuts' })).toBeTruthy();
  });
});
