// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import '../shell/domStubs';
import { describe, expect, it, vi } from 'vitest';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  annotator,
  fakeBudgetsServer,
  isolateEachTest,
  makeBudget,
  makeEntry,
  makeProcess,
  renderBudgets,
} from './harness';

// The real module registers a service worker through a Vite virtual module.
vi.mock('@/app/serviceWorker', async () => {
  const { createStore } = await import('@/lib/store');
  return {
    updateAvailable: createStore(false),
    applyUpdate: vi.fn(),
    registerServiceWorker: () => {},
  };
});

// The first page of a run waits for the route modules to load, slow on a busy machine.
configure({ asyncUtilTimeout: 10_000 });

isolateEachTest();

const rows = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    );

describe('the budgets list', () => {
  it('shows each budget with its amount, spent, remaining and a labelled bar', async () => {
    const digitisation = makeBudget('Digitisation', '1500.00', '375.00');
    const spent = makeBudget('Archive', '10.00', '12.00');
    fakeBudgetsServer({ budgets: [digitisation, spent] });
    renderBudgets('/budget/');

    const link = await screen.findByRole('link', { name: 'Digitisation' });
    expect(link.getAttribute('href')).toBe(`/budget/${digitisation.id}`);
    expect(rows(screen.getByRole('table', { name: 'Budgets' }))).toEqual([
      ['Archive', '10.00 EUR', '12.00 EUR', '-2.00 EUR', ''],
      ['Digitisation', '1,500.00 EUR', '375.00 EUR', '1,125.00 EUR', ''],
    ]);
    const bar = screen.getByRole('progressbar', {
      name: 'Digitisation: 375.00 EUR spent of 1,500.00 EUR',
    });
    expect(bar.getAttribute('aria-valuenow')).toBe('25');
    // An overrun budget's bar is full, not past its end.
    expect(
      screen
        .getByRole('progressbar', { name: 'Archive: 12.00 EUR spent of 10.00 EUR' })
        .getAttribute('aria-valuenow'),
    ).toBe('100');
  });

  it('lets a site admin add a budget, checking the amount first', async () => {
    const server = fakeBudgetsServer({ budgets: [] });
    renderBudgets('/budget/');
    await screen.findByText('There are no budgets yet.');

    await userEvent.click(screen.getByRole('button', { name: 'Add a budget' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a budget' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Digitisation');
    const amount = within(dialog).getByRole('textbox', { name: 'Amount' });
    await userEvent.type(amount, '12.345');
    expect(within(dialog).getByText('Enter an amount such as 1500 or 1500.50.')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(server.callsTo('POST', '/budgets/')).toHaveLength(0);

    await userEvent.clear(amount);
    await userEvent.type(amount, '1500.5');
    const currency = within(dialog).getByRole('textbox', { name: 'Currency' });
    await userEvent.clear(currency);
    await userEvent.type(currency, 'xyz');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    await within(dialog).findByText('Enter an ISO 4217 currency code, such as EUR or USD.');

    await userEvent.clear(currency);
    await userEvent.type(currency, 'usd');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.callsTo('POST', '/budgets/').at(-1)?.body).toEqual({
      name: 'Digitisation',
      amount: '1500.5',
      currency: 'USD',
    });
    await screen.findByRole('link', { name: 'Digitisation' });
    await screen.findByText('The budget Digitisation was added.');
  });

  it('offers no Add to someone who is not a site admin', async () => {
    fakeBudgetsServer({ budgets: [makeBudget('Digitisation', '100.00')] }, false);
    renderBudgets('/budget/', { user: annotator });
    await screen.findByRole('link', { name: 'Digitisation' });
    expect(screen.queryByRole('button', { name: 'Add a budget' })).toBeNull();
  });

  it('does not exist without the enterprise edition', async () => {
    const server = fakeBudgetsServer({ budgets: [makeBudget('Digitisation', '100.00')] });
    renderBudgets('/budget/', { enterprise: false });
    await screen.findByRole('heading', { name: 'Page not found' });
    expect(server.calls.filter((call) => call.path.startsWith('/budget'))).toHaveLength(0);
  });
});

describe("a budget's page", () => {
  const setUp = () => {
    const budget = makeBudget('Digitisation', '100.00');
    const ocr = makeProcess('OCR of volume 1');
    const htr = makeProcess('HTR');
    const entries = [
      makeEntry(budget, ocr, '12.50', '2026-11-25T09:00:00Z'),
      makeEntry(budget, ocr, '7.50', '2026-11-26T09:00:00Z'),
      makeEntry(budget, htr, '30.00', '2026-11-26T10:00:00Z'),
    ];
    return { budget, ocr, htr, server: fakeBudgetsServer({ budgets: [budget], entries }) };
  };

  it('shows its figures, what each process and each day spent, and its entries', async () => {
    const { budget, ocr } = setUp();
    renderBudgets(`/budget/${budget.id}`);
    await screen.findByRole('heading', { name: 'Digitisation' });
    const figures = screen.getAllByRole('definition').map((dd) => dd.textContent);
    expect(figures).toEqual(['100.00 EUR', '50.00 EUR', '50.00 EUR', 'EUR']);
    expect(
      screen
        .getByRole('progressbar', { name: 'Digitisation: 50.00 EUR spent of 100.00 EUR' })
        .getAttribute('aria-valuenow'),
    ).toBe('50');

    const perProcess = await screen.findByRole('table', { name: 'Spent per process' });
    expect(rows(perProcess)).toEqual([
      ['OCR of volume 1', '2', '20.00 EUR'],
      ['HTR', '1', '30.00 EUR'],
    ]);
    expect(
      within(perProcess).getByRole('link', { name: 'OCR of volume 1' }).getAttribute('href'),
    ).toBe(`/process/${ocr.id}`);
    expect(rows(screen.getByRole('table', { name: 'Spent per day' }))).toEqual([
      ['2026-11-25', '1', '12.50 EUR'],
      ['2026-11-26', '2', '37.50 EUR'],
    ]);
    // The chart draws the same days, the larger day the taller bar.
    const bars = [...screen.getByTestId('daily-chart').querySelectorAll<HTMLElement>('[style]')];
    expect(bars.map((bar) => bar.style.height)).toEqual(['33.33333333333333%', '100%']);

    const entries = await screen.findByRole('table', { name: 'Entries' });
    expect(rows(entries).map((row) => [row[1], row[3]])).toEqual([
      ['HTR', '30.00 EUR'],
      ['OCR of volume 1', '7.50 EUR'],
      ['OCR of volume 1', '12.50 EUR'],
    ]);
  });

  it('lets a site admin edit it and delete it once confirmed', async () => {
    const { budget, server } = setUp();
    const { router } = renderBudgets(`/budget/${budget.id}`);
    await screen.findByRole('heading', { name: 'Digitisation' });

    await userEvent.click(screen.getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit a budget' });
    const amount = within(dialog).getByRole('textbox', { name: 'Amount' });
    await userEvent.clear(amount);
    await userEvent.type(amount, '200');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.callsTo('PATCH', `/budget/${budget.id}/`).at(-1)?.body).toEqual({
      name: 'Digitisation',
      amount: '200',
      currency: 'EUR',
    });
    await waitFor(() =>
      expect(screen.getAllByRole('definition')[0]!.textContent).toBe('200.00 EUR'),
    );

    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog');
    expect(confirm.textContent).toContain('the budget Digitisation and its entries');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/budget/'));
    expect(server.callsTo('DELETE', `/budget/${budget.id}/`)).toHaveLength(1);
    expect(server.budgets).toEqual([]);
  });

  it('offers no Edit or Delete to someone who is not a site admin', async () => {
    const budget = makeBudget('Digitisation', '100.00');
    fakeBudgetsServer({ budgets: [budget] }, false);
    renderBudgets(`/budget/${budget.id}`, { user: annotator });
    await screen.findByRole('heading', { name: 'Digitisation' });
    await screen.findByText('Nothing has been charged to this budget yet.');
    expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
  });
});

describe("a process' budget", () => {
  it('attaches, changes and detaches the budget of a process', async () => {
    const small = makeBudget('Small', '10.00', '2.50');
    const large = makeBudget('Large', '1000.00');
    const process = makeProcess('OCR of volume 1');
    const server = fakeBudgetsServer({ budgets: [small, large], processes: [process] });
    renderBudgets(`/process/${process.id}/budget`);

    await screen.findByRole('heading', { name: 'Budget of OCR of volume 1' });
    expect(screen.getByText('This process has no budget.')).toBeTruthy();
    const select = screen.getByRole('combobox', { name: 'Budget' });
    expect(
      within(select)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['No budget', 'Large (1,000.00 EUR remaining)', 'Small (7.50 EUR remaining)']);

    await userEvent.selectOptions(select, small.id);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('The budget of this process was saved.');
    expect(server.callsTo('PUT', `/process/${process.id}/budget/`).at(-1)?.body).toEqual({
      budget_id: small.id,
    });
    const current = await screen.findByRole('link', { name: 'Small' });
    expect(current.getAttribute('href')).toBe(`/budget/${small.id}`);
    expect(
      screen.getByRole('progressbar', { name: 'Small: 2.50 EUR spent of 10.00 EUR' }),
    ).toBeTruthy();

    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Budget' }), '');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('This process has no budget.');
    expect(server.callsTo('PUT', `/process/${process.id}/budget/`).at(-1)?.body).toEqual({
      budget_id: null,
    });
  });
});
