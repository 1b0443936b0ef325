/**
 * The search page (spec 001 §2 "Search page"): a project, a query with its help, the sources to
 * search and the sort; then the facets beside a page of results. Everything it searches for
 * comes from, and goes back to, the address (searchUrl.ts).
 */
import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { corpusListQuery, corpusQuery } from '@/api/corpora';
import { ApiError } from '@/api/errors';
import {
  SEARCH_PAGE_SIZE,
  SEARCH_SORTS,
  SEARCH_SOURCES,
  type SearchFacetName,
  type SearchParams,
  type SearchSource,
} from '@/api/search';
import type { Corpus } from '@/api/types';
import { PaginationBar } from '@/components/PaginationBar';
import { ui } from '@/components/styles';
import { useDocumentTitle } from '@/lib/documentTitle';
import {
  highlightTerms,
  MAX_QUERY_LENGTH,
  parseSearchQuery,
  type ParseResult,
} from '@/lib/search/query';
import { useConnectivity } from '@/offline/runtime';
import { NO_RESULTS, NO_SOURCE, NOT_INDEXABLE, SORT_LABELS, SOURCE_LABELS } from './labels';
import { SearchFacets } from './SearchFacets';
import { SearchHelpModal } from './SearchHelpModal';
import { SearchHitItem } from './SearchHitItem';
import { ReindexButton } from './ReindexButton';
import { FROM_DEVICE, searchResultsQuery, type SearchAnswer } from './searchResults';
import { toggleFacet, type SearchPageState } from './searchUrl';

export interface SearchPageProps {
  /** The project searched; null until one is picked. */
  corpusId: string | null;
  state: SearchPageState;
  onStateChange: (state: SearchPageState) => void;
  onCorpusChange: (corpusId: string) => void;
}

export function SearchPage({ corpusId, state, onStateChange, onCorpusChange }: SearchPageProps) {
  const corpus = useQuery({ ...corpusQuery(corpusId ?? ''), enabled: !!corpusId });
  useDocumentTitle([corpus.data?.name]);
  const { params } = state;
  const change = (patch: Partial<SearchParams>) =>
    onStateChange({ submitted: state.submitted, params: { ...params, page: 1, ...patch } });
  const { online } = useConnectivity();
  const parsed = useMemo(() => parseSearchQuery(params.query), [params.query]);
  const ready =
    !!corpusId &&
    !!corpus.data?.indexable &&
    state.submitted &&
    parsed.ok &&
    params.sources.length > 0;
  const results = useQuery({
    ...searchResultsQuery(corpusId ?? '', params, online),
    enabled: ready,
  });
  // A query refused, by the parser here before any request or by the server, is said under it.
  const queryError = !parsed.ok ? parsed.error : results.error && queryFailure(results.error);

  return (
    <section aria-labelledby="search-heading" className="mx-auto max-w-7xl space-y-4 p-6">
      <h1 id="search-heading" className="text-2xl font-semibold text-brand-900">
        Search
      </h1>
      <div className={`${ui.card} space-y-3`}>
        <div className="flex flex-wrap items-end justify-between gap-3">
          <ProjectPicker
            corpusId={corpusId}
            current={corpus.data ?? null}
            onChange={onCorpusChange}
          />
          {corpus.data && <ReindexButton corpus={corpus.data} />}
        </div>
        <QueryForm
          query={params.query}
          error={queryError || null}
          onSubmit={(query) =>
            onStateChange({ submitted: true, params: { ...params, query, page: 1 } })
          }
        />
        <div className="flex flex-wrap items-end justify-between gap-x-6 gap-y-3">
          <SourcesField sources={params.sources} onChange={(sources) => change({ sources })} />
          <SortField sort={params.sort} onChange={(sort) => change({ sort })} />
        </div>
      </div>
      {corpusId ? (
        <ProjectResults
          corpus={corpus.data ?? null}
          parsed={parsed}
          results={results}
          state={state}
          change={change}
          onPage={(page) => onStateChange({ ...state, params: { ...params, page } })}
        />
      ) : (
        <p className="text-slate-600">
          Choose a project to search its elements, transcriptions, metadata, classes and entities.
        </p>
      )}
    </section>
  );
}

function ProjectPicker({
  corpusId,
  current,
  onChange,
}: {
  corpusId: string | null;
  current: Corpus | null;
  onChange: (corpusId: string) => void;
}) {
  const id = useId();
  // Read again on each visit: an administrator may have made a project indexable since.
  const corpora = useQuery({ ...corpusListQuery, refetchOnMount: 'always' });
  const choices = useMemo(() => {
    const indexable = (corpora.data ?? []).filter((corpus) => corpus.indexable);
    // The project of the address stays shown even when it cannot be searched.
    if (current && !indexable.some((corpus) => corpus.id === current.id)) indexable.push(current);
    return indexable.sort((a, b) => a.name.localeCompare(b.name));
  }, [corpora.data, current]);
  return (
    <div className="w-full max-w-md">
      <label htmlFor={id} className={ui.label}>
        Project
      </label>
      <select
        id={id}
        value={corpusId ?? ''}
        onChange={(event) => event.target.value && onChange(event.target.value)}
        className={ui.input}
      >
        <option value="" disabled>
          {corpora.isPending ? 'Loading…' : 'Choose a project'}
        </option>
        {choices.map((corpus) => (
          <option key={corpus.id} value={corpus.id}>
            {corpus.name}
          </option>
        ))}
      </select>
      {corpora.isSuccess && choices.length === 0 && (
        <p className={ui.help}>
          No project can be searched yet: a project administrator makes a project indexable in its
          settings.
        </p>
      )}
    </div>
  );
}

function QueryForm({
  query,
  error,
  onSubmit,
}: {
  query: string;
  error: string | null;
  onSubmit: (query: string) => void;
}) {
  const id = useId();
  const errorId = useId();
  const [text, setText] = useState(query);
  const [help, setHelp] = useState(false);
  // Back and forward change the address, and the box follows it.
  useEffect(() => setText(query), [query]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(text.trim());
  };
  return (
    <form role="search" onSubmit={submit}>
      <label htmlFor={id} className={ui.label}>
        Query
      </label>
      <div className="mt-1 flex gap-2">
        <input
          id={id}
          type="search"
          value={text}
          maxLength={MAX_QUERY_LENGTH + 1}
          onChange={(event) => setText(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className={`${ui.input} mt-0`}
          placeholder="louis AND paris"
        />
        <button
          type="button"
          className={ui.secondaryButton}
          aria-label="Search help"
          title="Search help"
          onClick={() => setHelp(true)}
        >
          ?
        </button>
        <button type="submit" className={ui.primaryButton}>
          Search
        </button>
      </div>
      {error && (
        <p id={errorId} role="alert" className={ui.fieldError}>
          {error}
        </p>
      )}
      {help && <SearchHelpModal onClose={() => setHelp(false)} />}
    </form>
  );
}

function SourcesField({
  sources,
  onChange,
}: {
  sources: SearchSource[];
  onChange: (sources: SearchSource[]) => void;
}) {
  const toggle = (source: SearchSource, checked: boolean) =>
    onChange(SEARCH_SOURCES.filter((item) => (item === source ? checked : sources.includes(item))));
  return (
    <fieldset>
      <legend className={ui.label}>Sources</legend>
      <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-700">
        {SEARCH_SOURCES.map((source) => (
          <label key={source} className="flex items-center gap-2">
            <input
              type="checkbox"
              className={ui.checkbox}
              checked={sources.includes(source)}
              onChange={(event) => toggle(source, event.target.checked)}
            />
            {SOURCE_LABELS[source]}
          </label>
        ))}
      </div>
      {sources.length === 0 && (
        <p role="alert" className={ui.fieldError}>
          {NO_SOURCE}
        </p>
      )}
    </fieldset>
  );
}

function SortField({
  sort,
  onChange,
}: {
  sort: SearchParams['sort'];
  onChange: (sort: SearchParams['sort']) => void;
}) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className={ui.label}>
        Sort
      </label>
      <select
        id={id}
        value={sort}
        onChange={(event) => onChange(event.target.value as SearchParams['sort'])}
        className={ui.input}
      >
        {SEARCH_SORTS.map((choice) => (
          <option key={choice} value={choice}>
            {SORT_LABELS[choice]}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The server's refusal of the query itself (a 400 on `query`), else null. */
function queryFailure(error: Error): string | null {
  const detail = error instanceof ApiError ? error.fields.query : undefined;
  return detail?.length ? detail.join(' ') : null;
}

/** The message of a failed search: the server's detail on the project when it gives one. */
function failure(error: Error): string {
  const detail = error instanceof ApiError ? error.fields.corpus : undefined;
  return detail?.length ? detail.join(' ') : error.message;
}

function ProjectResults({
  corpus,
  parsed,
  results,
  state,
  change,
  onPage,
}: {
  corpus: Corpus | null;
  parsed: ParseResult;
  results: UseQueryResult<SearchAnswer>;
  state: SearchPageState;
  change: (patch: Partial<SearchParams>) => void;
  onPage: (page: number) => void;
}) {
  const { params } = state;
  const terms = useMemo(() => (parsed.ok ? highlightTerms(parsed.tree) : []), [parsed]);
  const typeName = useMemo(() => {
    const names = new Map((corpus?.types ?? []).map((type) => [type.slug, type.display_name]));
    return (slug: string) => names.get(slug) ?? slug;
  }, [corpus]);

  if (!corpus) return null;
  if (!corpus.indexable)
    return (
      <p role="alert" className="text-slate-700">
        {NOT_INDEXABLE}
      </p>
    );
  if (!parsed.ok || !state.submitted || params.sources.length === 0) return null;
  if (results.isPending)
    return (
      <p role="status" className="text-slate-600">
        Loading…
      </p>
    );
  if (results.isError)
    return queryFailure(results.error) ? null : (
      <p role="alert" className={ui.fieldError}>
        {failure(results.error)}
      </p>
    );
  const { response, fromDevice } = results.data;
  return (
    <div className="flex flex-col gap-6 md:flex-row md:items-start">
      <aside aria-label="Facets" className="md:w-60 md:shrink-0">
        <SearchFacets
          facets={response.facets}
          selected={params.facets}
          onToggle={(facet: SearchFacetName, value: string) =>
            change({ facets: toggleFacet(params.facets, facet, value) })
          }
        />
      </aside>
      <div className={`min-w-0 flex-1 space-y-3 ${results.isPlaceholderData ? 'opacity-60' : ''}`}>
        {fromDevice && (
          <p role="status" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
            {FROM_DEVICE}
          </p>
        )}
        {response.count === 0 ? (
          <p className="text-slate-600">{NO_RESULTS}</p>
        ) : (
          <>
            <PaginationBar
              count={response.count}
              page={params.page}
              pageSize={SEARCH_PAGE_SIZE}
              singular="result"
              onPageChange={onPage}
              label="Search results pages"
            />
            <ul
              aria-label="Search results"
              className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white px-4"
            >
              {response.results.map((hit) => (
                <SearchHitItem key={hit.id} hit={hit} terms={terms} typeName={typeName} />
              ))}
            </ul>
            {response.count > SEARCH_PAGE_SIZE && (
              <PaginationBar
                count={response.count}
                page={params.page}
                pageSize={SEARCH_PAGE_SIZE}
                singular="result"
                onPageChange={onPage}
                showJump={false}
                label="Search results pages, below"
              />
            )}
          </>
        )}
      </div>
    </div>
  );
}
