/**
 * The processes (spec 000 §2 processes-list): the caller's started processes by default, a name
 * search, mode and state filters, and toggles to see others' and unstarted ones.
 */
import { PagedListState } from '@/components/PagedListState';
import { useId } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { processListQuery, type ProcessListQuery } from '@/api/processes';
import { PROCESS_MODES, PROCESS_STATES } from '@/api/processTypes';
import { PaginationBar } from '@/components/PaginationBar';
import { SearchBox } from '@/components/SearchBox';
import { useErrorNotification } from '@/components/notifications/useErrorNotification';
import { ui } from '@/components/styles';
import { relativeTime } from '@/lib/relativeTime';
import { PAGE_SIZES } from './listSearch';
import { modeLabel, processName } from './labels';
import { StateBadge, stateLabel } from './StateBadge';

export function ProcessesListPage({
  query,
  onQueryChange,
}: {
  query: ProcessListQuery;
  onQueryChange: (query: ProcessListQuery) => void;
}) {
  const processes = useQuery(processListQuery(query));
  useErrorNotification(processes.error);
  const ids = { mode: useId(), state: useId(), size: useId() };
  const change = (patch: Partial<ProcessListQuery>) =>
    onQueryChange({ ...query, page: 1, ...patch });
  const filtered = !!query.name || !!query.mode || !!query.state || query.created || query.started;

  return (
    <section aria-labelledby="processes-heading" className="mx-auto max-w-6xl space-y-4 p-6">
      <h1 id="processes-heading" className="text-2xl font-semibold text-brand-900">
        Processes
      </h1>
      <div className={`${ui.card} space-y-3`}>
        <div className="flex flex-col gap-3 md:flex-row md:items-end">
          <div className="grow">
            <SearchBox
              label="Search by name"
              value={query.name}
              onSearch={(name) => change({ name })}
            />
          </div>
          <ChoiceFilter
            id={ids.mode}
            label="Mode"
            all="All modes"
            value={query.mode}
            choices={PROCESS_MODES}
            text={modeLabel}
            onChange={(mode) => change({ mode })}
          />
          <ChoiceFilter
            id={ids.state}
            label="State"
            all="All states"
            value={query.state}
            choices={PROCESS_STATES}
            text={stateLabel}
            onChange={(state) => change({ state })}
          />
        </div>
        <div className="flex flex-wrap items-center gap-x-6 gap-y-2 text-sm text-slate-700">
          <label className="flex items-center gap-2">
            <input
              type="checkbox"
              className={ui.checkbox}
              checked={query.created}
              onChange={(event) => change({ created: event.target.checked })}
            />
            Only my processes
          </label>
          <label className="flex items-center gap-2">
            <input
              type="checkbox"
              className={ui.checkbox}
              checked={query.started}
              onChange={(event) => change({ started: event.target.checked })}
            />
            Only started processes
          </label>
          <span className="flex items-center gap-2 sm:ml-auto">
            <label htmlFor={ids.size}>Per page</label>
            <select
              id={ids.size}
              className="rounded-md border border-slate-300 px-2 py-1 text-sm"
              value={query.pageSize}
              onChange={(event) => change({ pageSize: Number(event.target.value) })}
            >
              {PAGE_SIZES.map((size) => (
                <option key={size} value={size}>
                  {size}
                </option>
              ))}
            </select>
          </span>
        </div>
      </div>
      <PagedListState
        query={processes}
        failed={() => 'The processes could not be loaded.'}
        empty={filtered ? 'No process matches these filters.' : 'There are no processes yet.'}
      >
        {(page) => (
          <>
            <div className="overflow-x-auto">
              <table className="min-w-full divide-y divide-slate-200 text-left text-sm">
                <caption className="sr-only">Processes</caption>
                <thead className="text-slate-500">
                  <tr>
                    {['Name', 'Mode', 'State', 'Project', 'Creator', 'Created', 'Started'].map(
                      (column) => (
                        <th key={column} scope="col" className="py-2 pr-4 font-medium">
                          {column}
                        </th>
                      ),
                    )}
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {page.results.map((process) => (
                    <tr key={process.id}>
                      <td className="py-2 pr-4 font-medium">
                        <Link
                          to="/process/$id/{-$selectedRun}"
                          params={{ id: process.id, selectedRun: undefined }}
                          className={ui.link}
                        >
                          {processName(process)}
                        </Link>
                      </td>
                      <td className="py-2 pr-4">{modeLabel(process.mode)}</td>
                      <td className="py-2 pr-4">
                        <StateBadge state={process.state} />
                      </td>
                      <td className="py-2 pr-4">
                        {process.corpus ? (
                          <Link
                            to="/browse/$corpusId"
                            params={{ corpusId: process.corpus }}
                            className={ui.link}
                          >
                            {process.corpus_name ?? process.corpus.slice(0, 8)}
                          </Link>
                        ) : (
                          '—'
                        )}
                      </td>
                      <td className="py-2 pr-4">{process.creator?.display_name ?? '—'}</td>
                      <td className="py-2 pr-4 whitespace-nowrap" title={process.created}>
                        {relativeTime(process.created)}
                      </td>
                      <td className="py-2 whitespace-nowrap" title={process.started ?? undefined}>
                        {process.started ? relativeTime(process.started) : '—'}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <PaginationBar
              count={page.count}
              page={query.page}
              pageSize={query.pageSize}
              singular="process"
              plural="processes"
              label="Processes pages"
              onPageChange={(page) => onQueryChange({ ...query, page })}
            />
          </>
        )}
      </PagedListState>
    </section>
  );
}

/** A select of the list's filters: every choice, or all of them (the empty value). */
function ChoiceFilter<T extends string>({
  id,
  label,
  all,
  value,
  choices,
  text,
  onChange,
}: {
  id: string;
  label: string;
  all: string;
  value: T | '';
  choices: readonly T[];
  text: (choice: T) => string;
  onChange: (value: T | '') => void;
}) {
  return (
    <div className="md:w-44">
      <label htmlFor={id} className={ui.label}>
        {label}
      </label>
      <select
        id={id}
        className={ui.input}
        value={value}
        onChange={(event) => onChange(event.target.value as T | '')}
      >
        <option value="">{all}</option>
        {choices.map((choice) => (
          <option key={choice} value={choice}>
            {text(choice)}
          </option>
        ))}
      </select>
    </div>
  );
}
