import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { iiifUrl } from '@/api/elements';
import type { SearchHit } from '@/api/search';
import { bbox } from '@/lib/geometry';
import { highlightText } from '@/lib/search/highlight';
import { TRUNCATE, truncate } from '@/lib/truncate';
import { DESCRIPTION_LENGTH } from './labels';

export type HighlightTerms = { token: string; prefix: boolean }[];
export type TextPart = { text: string; match: boolean };

/** The height of a hit's thumbnail; a smaller zone (a line) keeps its own height. */
const THUMBNAIL_HEIGHT = 64;

/**
 * `length` characters of the highlighted text, with '…' where it was cut: from the start when
 * the first match falls within them, else from a little before that match, so it is seen.
 */
export function excerptParts(parts: TextPart[], length: number = DESCRIPTION_LENGTH): TextPart[] {
  const whole = parts.map((part) => part.text).join('');
  if (whole.length <= length) return parts;
  let offset = 0;
  let firstMatch: { start: number; end: number } | null = null;
  for (const part of parts) {
    if (part.match) {
      firstMatch = { start: offset, end: offset + part.text.length };
      break;
    }
    offset += part.text.length;
  }
  const start =
    firstMatch && firstMatch.end > length
      ? Math.min(Math.max(0, firstMatch.start - 20), whole.length - length)
      : 0;
  const end = start + length;
  const cut: TextPart[] = start > 0 ? [{ text: '…', match: false }] : [];
  offset = 0;
  for (const part of parts) {
    const from = Math.max(start, offset);
    const to = Math.min(end, offset + part.text.length);
    if (from < to)
      cut.push({ text: part.text.slice(from - offset, to - offset), match: part.match });
    offset += part.text.length;
  }
  if (end < whole.length) cut.push({ text: '…', match: false });
  return cut;
}

/** What the hit matched, as the page shows it: a label and the matched text. */
export function matchedText(hit: SearchHit): { label: string; text: string } {
  switch (hit.source) {
    case 'transcription':
      return { label: 'Transcription', text: hit.transcription_text ?? '' };
    case 'metadata':
      return { label: `Metadata ${hit.metadata_name ?? ''}`.trim(), text: hit.metadata_text ?? '' };
    case 'classification':
      return { label: 'Class', text: hit.classification_name ?? '' };
    case 'transcription_entity':
      return {
        label: hit.transcription_entity_type ? `Entity ${hit.transcription_entity_type}` : 'Entity',
        text: hit.transcription_entity_text ?? '',
      };
    case 'element':
    default:
      return { label: 'Name', text: hit.element_text };
  }
}

export function hitConfidence(hit: SearchHit): number | null {
  return hit.transcription_confidence ?? hit.classification_confidence ?? null;
}

/** The element page of the hit, with the hit's element highlighted when it is a part of it. */
export function hitLink(hit: SearchHit): { id: string; search: { highlight?: string } } {
  return {
    id: hit.page_id,
    search: hit.page_id === hit.element_id ? {} : { highlight: hit.element_id },
  };
}

export function Highlighted({ parts }: { parts: TextPart[] }) {
  return (
    <>
      {parts.map((part, index) =>
        part.match ? (
          <mark key={index} className="rounded-sm bg-amber-200 px-0.5 text-slate-900">
            {part.text}
          </mark>
        ) : (
          <span key={index}>{part.text}</span>
        ),
      )}
    </>
  );
}

function HitThumbnail({ hit }: { hit: SearchHit }) {
  const [failed, setFailed] = useState(false);
  if (!hit.element_image || failed) return null;
  const polygon = hit.element_polygon;
  let url: string;
  if (polygon && polygon.length > 0) {
    const box = bbox(polygon);
    const width = Math.max(1, Math.round(box.maxX - box.minX));
    const height = Math.max(1, Math.round(box.maxY - box.minY));
    url = iiifUrl(
      hit.element_image,
      { x: Math.max(0, Math.round(box.minX)), y: Math.max(0, Math.round(box.minY)), width, height },
      `!320,${Math.min(THUMBNAIL_HEIGHT, height)}`,
    );
  } else {
    url = iiifUrl(hit.element_image, 'full', `,${THUMBNAIL_HEIGHT}`);
  }
  return (
    <img
      src={url}
      alt=""
      loading="lazy"
      onError={() => setFailed(true)}
      className="h-16 w-full shrink-0 rounded border border-slate-200 bg-slate-50 object-contain sm:w-80"
    />
  );
}

export interface SearchHitItemProps {
  hit: SearchHit;
  terms: HighlightTerms;
  /** The type's display name for a slug. */
  typeName: (slug: string) => string;
}

/** One result: the element and its parent, its image, what matched with the query's words marked. */
export function SearchHitItem({ hit, terms, typeName }: SearchHitItemProps) {
  const matched = matchedText(hit);
  const confidence = hitConfidence(hit);
  const link = hitLink(hit);
  const parts = excerptParts(highlightText(matched.text, terms));
  return (
    <li className="flex flex-col gap-2 py-3 sm:flex-row sm:items-start sm:gap-4">
      <div className="min-w-0 flex-1 space-y-1">
        <p className="text-sm">
          <span className="mr-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs font-medium text-slate-600">
            {typeName(hit.element_type)}
          </span>
          <Link
            to="/element/$id"
            params={{ id: link.id }}
            search={link.search}
            title={hit.element_text}
            className="font-semibold text-brand-700 hover:underline focus-visible:underline"
          >
            {truncate(hit.element_text, TRUNCATE.long)}
          </Link>
          {hit.parent_id && hit.parent_name !== null && (
            <span className="text-slate-500">
              {' '}
              in {hit.parent_type ? `${typeName(hit.parent_type)} ` : ''}
              <span title={hit.parent_name}>{truncate(hit.parent_name, TRUNCATE.short)}</span>
            </span>
          )}
          {/* Lines of many pages share names (1, 2, 3…): the page they are on tells them apart. */}
          {hit.page_id !== hit.element_id && hit.page_id !== hit.parent_id && (
            <span className="text-slate-500">
              {' '}
              on <span title={hit.page_name}>{truncate(hit.page_name, TRUNCATE.short)}</span>
            </span>
          )}
        </p>
        <p className="text-sm text-slate-700" data-testid="search-hit-text">
          <span className="mr-1 text-xs font-medium tracking-wide text-slate-500 uppercase">
            {matched.label}
          </span>
          {/* Its own direction: an Arabic or Hebrew line reads right to left. */}
          <span dir="auto">
            <Highlighted parts={parts} />
          </span>
        </p>
        {confidence !== null && (
          <p className="text-xs text-slate-500">Confidence {confidence.toFixed(2)}</p>
        )}
      </div>
      <HitThumbnail hit={hit} />
    </li>
  );
}
