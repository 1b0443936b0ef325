// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Notifications } from '@/components/notifications/Notifications';
import {
  DEFAULT_TIMEOUT,
  dismiss,
  notifications,
  notify,
  notifyError,
} from '@/components/notifications/store';
import { ApiError } from '@/api/errors';

function clearAll() {
  for (const notification of notifications.get()) dismiss(notification.id);
}

afterEach(() => {
  cleanup();
  clearAll();
  vi.useRealTimers();
});

describe('notifications', () => {
  beforeEach(() => vi.useFakeTimers());

  it('closes itself after 5000 ms by default', () => {
    render(<Notifications />);
    act(() => {
      notify({ text: 'Saved the model' });
    });
    expect(screen.getByRole('status').textContent).toContain('Saved the model');
    expect(DEFAULT_TIMEOUT).toBe(5000);
    act(() => vi.advanceTimersByTime(4999));
    expect(screen.queryByText('Saved the model')).not.toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText('Saved the model')).toBeNull();
  });

  it('honours a custom timeout and keeps a timeout of 0 until closed', () => {
    render(<Notifications />);
    act(() => {
      notify({ text: 'Deletion recorded', timeout: 10_000 });
      notify({ text: 'Sticky message', timeout: 0 });
    });
    act(() => vi.advanceTimersByTime(5000));
    expect(screen.queryByText('Deletion recorded')).not.toBeNull();
    act(() => vi.advanceTimersByTime(5000));
    expect(screen.queryByText('Deletion recorded')).toBeNull();
    act(() => vi.advanceTimersByTime(60 * 60 * 1000));
    expect(screen.queryByText('Sticky message')).not.toBeNull();
  });

  it('shows the same words once when they come again, for the full time from the last', () => {
    render(<Notifications />);
    act(() => {
      notify({ type: 'success', text: 'Metadata created.' });
    });
    act(() => vi.advanceTimersByTime(3000));
    act(() => {
      notify({ type: 'success', text: 'Metadata created.' });
      notify({ type: 'error', text: 'Metadata created.' });
      notify({ type: 'success', text: 'Metadata deleted.' });
    });
    expect(screen.getAllByText('Metadata created.')).toHaveLength(2);
    expect(screen.getAllByText('Metadata deleted.')).toHaveLength(1);
    act(() => vi.advanceTimersByTime(4999));
    expect(screen.getAllByText('Metadata created.')).toHaveLength(2);
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText('Metadata created.')).toBeNull();
  });

  it('truncates text at 500 characters', () => {
    render(<Notifications />);
    act(() => {
      notify({ text: 'a'.repeat(600) });
    });
    const text = screen.getByRole('status').textContent ?? '';
    expect(text).toContain('a'.repeat(500));
    expect(text).not.toContain('a'.repeat(501));
  });

  it('shows errors as alerts with the API message', () => {
    render(<Notifications />);
    act(() => {
      notifyError(new ApiError(400, 'Name is blank.'), 'An error occurred creating the process');
    });
    expect(screen.getByRole('alert').textContent).toContain(
      'An error occurred creating the process: Name is blank.',
    );
  });
});

describe('notification content', () => {
  it('renders markdown when asked, and plain text otherwise', async () => {
    render(<Notifications />);
    act(() => {
      notify({ text: 'Export **ready**: [download](https://example.org/e.zip)', markdown: true });
      notify({ text: 'Plain **stars**' });
    });
    // The renderer loads when markdown is first shown.
    expect((await screen.findByText('ready')).tagName).toBe('STRONG');
    expect(screen.getByRole('link', { name: 'download' }).getAttribute('href')).toBe(
      'https://example.org/e.zip',
    );
    expect(screen.getByText('Plain **stars**')).not.toBeNull();
  });

  it('does not inject handlers or scripts from markdown', async () => {
    const { container } = render(<Notifications />);
    act(() => {
      notify({
        text: 'Look <img src=x onerror="window.__pwned = true"> <script>window.__pwned = true</script>',
        markdown: true,
      });
    });
    // Rendered: the image without a loadable source and the script are gone.
    await screen.findByText('Look');
    expect(container.querySelector('script')).toBeNull();
    expect(container.innerHTML).not.toContain('onerror');
    expect(container.innerHTML).not.toContain('__pwned');
    expect(screen.getByRole('status').textContent).toContain('Look');
  });

  it('shows a link and closes on the close button', async () => {
    const user = userEvent.setup();
    render(<Notifications />);
    act(() => {
      notify({
        type: 'error',
        text: 'A configuration with this name exists.',
        link: { url: '/process/workers/abc', text: 'See the configuration' },
        timeout: 0,
      });
    });
    expect(screen.getByRole('link', { name: 'See the configuration' }).getAttribute('href')).toBe(
      '/process/workers/abc',
    );
    await user.click(screen.getByRole('button', { name: 'Close notification' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
