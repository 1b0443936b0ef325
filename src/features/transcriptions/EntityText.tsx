import { useQuery } from '@tanstack/react-query';
import { api, type Page } from '@/api/client';
import type { Transcription, TranscriptionEntity } from '@/api/types';

/** Cuts a text into plain runs and entity runs, entities in offset order, overlaps skipped. */
export function entityRuns(
  text: string,
  entities: readonly TranscriptionEntity[],
): { text: string; entity: TranscriptionEntity | null }[] {
  const runs: { text: string; entity: TranscriptionEntity | null }[] = [];
  let at = 0;
  for (const entity of [...entities].sort((a, b) => a.offset - b.offset)) {
    if (entity.offset < at || entity.offset + entity.length > text.length) continue;
    if (entity.offset > at) runs.push({ text: text.slice(at, entity.offset), entity: null });
    runs.push({ text: text.slice(entity.offset, entity.offset + entity.length), entity });
    at = entity.offset + entity.length;
  }
  if (at < text.length) runs.push({ text: text.slice(at), entity: null });
  return runs;
}

/** The text with its entities highlighted in their type's colour. */
export function EntityText({ transcription }: { transcription: Transcription }) {
  const hasEntities = (transcription.entity_count ?? 0) > 0;
  const entities = useQuery({
    queryKey: ['transcription-entities', transcription.id],
    queryFn: async () => {
      const answer = await api<Page<TranscriptionEntity> | TranscriptionEntity[]>(
        `/transcription/${transcription.id}/entities/`,
      );
      return Array.isArray(answer) ? answer : answer.results;
    },
    enabled: hasEntities,
  });
  if (!hasEntities || !entities.data) return <>{transcription.text}</>;
  return (
    <>
      {entityRuns(transcription.text, entities.data).map((run, i) =>
        run.entity ? (
          <mark
            key={i}
            title={run.entity.type.name}
            className="rounded px-0.5"
            style={{ backgroundColor: `#${run.entity.type.color}40` }}
          >
            {run.text}
          </mark>
        ) : (
          <span key={i}>{run.text}</span>
        ),
      )}
    </>
  );
}
