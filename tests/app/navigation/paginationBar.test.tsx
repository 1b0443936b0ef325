// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PaginationBar, parsePageJump, visiblePages } from '@/components/PaginationBar';

afterEach(cleanup);

describe('PaginationBar in page mode', () => {
  it('reads No results when there is nothing', () => {
    render(
      <PaginationBar count={0} page={1} pageSize={20} singular="element" onPageChange={vi.fn()} />,
    );
    expect(screen.getByText('No results')).toBeTruthy();
    expect(screen.queryByRole('navigation')).toBeNull();
  });

  it('names the counted things with the given plural', () => {
    render(
      <PaginationBar
        count={3}
        page={1}
        pageSize={20}
        singular="process"
        plural="processes"
        onPageChange={vi.fn()}
      />,
    );
    expect(screen.getByText('Items 1 to 3 out of 3 processes')).toBeTruthy();
  });

  it('uses buttons without addresses and reports the page chosen', async () => {
    const onPageChange = vi.fn();
    render(
      <PaginationBar
        count={200}
        page={4}
        pageSize={20}
        singular="element"
        onPageChange={onPageChange}
      />,
    );
    expect(screen.getByText('Items 61 to 80 out of 200 elements')).toBeTruthy();
    expect(
      screen
        .getAllByRole('button', { name: /page/i })
        .map((button) => button.getAttribute('aria-label')),
    ).toEqual([
      'Previous page',
      'Go to page 1',
      'Go to page 3',
      'Page 4',
      'Go to page 5',
      'Go to page 10',
      'Next page',
    ]);

    await userEvent.click(screen.getByRole('button', { name: 'Go to page 10' }));
    await userEvent.click(screen.getByRole('button', { name: 'Previous page' }));
    await userEvent.type(screen.getByLabelText('Go to page'), '7{Enter}');
    expect(onPageChange.mock.calls).toEqual([[10], [3], [7]]);
  });
});

describe('PaginationBar in cursor mode', () => {
  it('offers Previous and Next only, each when there is somewhere to go', async () => {
    const onPrevious = vi.fn();
    const onNext = vi.fn();
    render(
      <PaginationBar
        mode="cursor"
        hasPrevious={false}
        hasNext
        onPrevious={onPrevious}
        onNext={onNext}
      />,
    );
    const buttons = screen.getAllByRole('button');
    expect(buttons.map((button) => button.textContent)).toEqual(['Previous', 'Next']);
    expect((buttons[0] as HTMLButtonElement).disabled).toBe(true);
    await userEvent.click(buttons[1]!);
    expect(onNext).toHaveBeenCalledTimes(1);
    expect(onPrevious).not.toHaveBeenCalled();
    expect(screen.queryByText(/^Items/)).toBeNull();
    expect(screen.queryByLabelText('Go to page')).toBeNull();
  });

  it('reads No results for an empty list', () => {
    render(
      <PaginationBar
        mode="cursor"
        empty
        hasPrevious={false}
        hasNext={false}
        onPrevious={vi.fn()}
        onNext={vi.fn()}
      />,
    );
    expect(screen.getByText('No results')).toBeTruthy();
  });
});

describe('page helpers', () => {
  it('jump to an integer from 1 to the last page other than the current one', () => {
    expect(parsePageJump('3', 1, 5)).toBe(3);
    expect(parsePageJump(' 5 ', 1, 5)).toBe(5);
    for (const value of ['0', '6', '1', '2.5', '-2', 'x', '']) {
      expect(parsePageJump(value, 1, 5)).toBeNull();
    }
  });

  it('list first, previous, current, next and last once each', () => {
    expect(visiblePages(1, 1)).toEqual([1]);
    expect(visiblePages(1, 10)).toEqual([1, 2, 10]);
    expect(visiblePages(2, 3)).toEqual([1, 2, 3]);
    expect(visiblePages(10, 10)).toEqual([1, 9, 10]);
  });
});
