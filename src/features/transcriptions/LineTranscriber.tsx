/**
 * Transcribing a page line by line from the keyboard: Enter saves the line's text and moves to
 * the next line in reading order, Shift+Enter to the previous one, and the image follows the
 * line being typed. Saves go through the outbox like any edit, so a page is transcribed offline
 * as well.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Transcription } from '@/api/types';
import { errorMessage } from '@/api/errors';
import { PanelSection } from '@/components/PanelSection';
import { notify } from '@/components/notifications/store';
import { ui } from '@/components/styles';
import { createStore, useStore } from '@/lib/store';
import { entityWrites } from '@/offline/entityWrites';
import { entityKeys, storedLineTranscriptionsQuery, storedZonesQuery } from '@/offline/queries';
import { isRightToLeft } from './orientation';
import { inReadingOrder } from './readingOrder';

/** Whether line-by-line transcription runs: the image then follows the selected line. */
export const lineFlow = createStore({ active: false });

export function useLineFlow(): boolean {
  return useStore(lineFlow).active;
}

export interface LineTranscriberProps {
  page: { id: string; corpusId: string };
  /** The page's lines, as its zones list gives them: they are put in reading order here. */
  lines: readonly { id: string; name: string }[];
  /** The line being typed: the page highlights it and the image shows it. */
  onLine: (id: string | null) => void;
}

const manualOf = (items: readonly Transcription[] | undefined) =>
  items?.find((item) => item.worker_run === null);

export function LineTranscriber({ page, lines: listed, onLine }: LineTranscriberProps) {
  const active = useLineFlow();
  const queryClient = useQueryClient();
  // The same zones the image draws: the regions holding the lines give their order.
  const zones = useQuery(storedZonesQuery(page.id));
  const listedIds = listed.map((line) => line.id);
  const transcriptions = useQuery({
    ...storedLineTranscriptionsQuery(page.id, listedIds),
    enabled: active && listedIds.length > 0,
  });
  // Right-to-left and vertical text read in their own direction: the lines' readings say which.
  const lines = useMemo(() => {
    const read = transcriptions.data;
    const orientationOf = (id: string) => {
      const items = read?.[id];
      return (manualOf(items) ?? items?.[0])?.orientation;
    };
    return inReadingOrder(listed, zones.data ?? [], orientationOf);
  }, [listed, zones.data, transcriptions.data]);
  // The line is kept by id: the order may change under it once the lines' readings arrive.
  const [currentId, setCurrentId] = useState<string | null>(null);
  const found = lines.findIndex((line) => line.id === currentId);
  const index = found >= 0 ? found : 0;
  const [text, setText] = useState('');
  const [saving, setSaving] = useState(false);
  const input = useRef<HTMLTextAreaElement>(null);
  const line = lines[index];
  const existing = line ? transcriptions.data?.[line.id] : undefined;
  const manual = manualOf(existing);
  const suggestion = existing?.find((item) => item.worker_run !== null);
  const orientation = manual?.orientation ?? suggestion?.orientation ?? 'horizontal-lr';
  /** The line whose text the field was filled with: a later read must not undo the typing. */
  const [filledFor, setFilledFor] = useState<string | null>(null);
  /** Until the line's text is in, there is nothing to correct, and nothing to save over it. */
  const ready = !!line && filledFor === line.id;

  // The field has the keyboard from the start: Enter pressed before the text arrives must not
  // reach the Stop button the click on Start left focused.
  useEffect(() => {
    if (active) input.current?.focus();
  }, [active, line?.id]);

  // The field shows the line's manual text, else what a worker read, to correct: once per line
  // reached, not again when the lines are read again (the edits synced, the tab refocused).
  useEffect(() => {
    if (!active || !line) {
      setFilledFor(null);
      return;
    }
    onLine(line.id);
    if (!transcriptions.data || filledFor === line.id) return;
    setFilledFor(line.id);
    setText(manual?.text ?? suggestion?.text ?? '');
    input.current?.focus();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [active, line?.id, transcriptions.data]);

  useEffect(() => () => lineFlow.set({ active: false }), []);

  if (lines.length === 0) return null;

  const save = async (): Promise<boolean> => {
    if (!line) return false;
    if (!ready) return true;
    const value = text.trim();
    if (value === (manual?.text ?? '') || (!manual && !value)) return true;
    // The worker's reading accepted as it is: nothing of the user's to keep.
    if (!manual && value === suggestion?.text) return true;
    setSaving(true);
    try {
      if (manual && value) {
        await entityWrites.updateTranscription(manual.id, page.corpusId, { text: value });
      } else if (manual) {
        await entityWrites.deleteTranscription(manual.id, page.corpusId);
      } else {
        await entityWrites.createTranscription(
          { id: line.id, corpusId: page.corpusId },
          value,
          orientation,
        );
      }
      await queryClient.invalidateQueries({ queryKey: entityKeys.transcriptions(page.id) });
      await queryClient.invalidateQueries({ queryKey: entityKeys.transcriptions(line.id) });
      return true;
    } catch (error) {
      notify({
        type: 'error',
        text: `An error occurred when updating the transcription: ${errorMessage(error)}`,
      });
      return false;
    } finally {
      setSaving(false);
    }
  };

  const go = async (step: number) => {
    if (!(await save())) return;
    const next = lines[Math.min(lines.length - 1, Math.max(0, index + step))];
    if (next) setCurrentId(next.id);
  };

  return (
    <PanelSection
      title="Transcribe line by line"
      actions={
        <button
          type="button"
          className={ui.secondaryButton}
          aria-pressed={active}
          onClick={() => {
            lineFlow.set({ active: !active });
            if (active) onLine(null);
          }}
        >
          {active ? 'Stop' : 'Start'}
        </button>
      }
    >
      {active && line && (
        <div className="flex flex-col gap-1 text-sm">
          <p className="text-slate-600">
            Line {index + 1} of {lines.length}: <span className="font-medium">{line.name}</span>
          </p>
          <textarea
            ref={input}
            aria-label={`Text of line ${line.name}`}
            className={`${ui.input} font-transcription`}
            rows={2}
            dir={isRightToLeft(orientation) ? 'rtl' : 'ltr'}
            value={text}
            readOnly={saving || !ready}
            aria-busy={saving || !ready}
            placeholder={ready ? undefined : 'Loading…'}
            onChange={(event) => setText(event.target.value)}
            onKeyDown={(event) => {
              if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
              event.preventDefault();
              // Enter waits for the line's text (and for the save under way): it moves on then.
              if (saving || !ready) return;
              void go(event.shiftKey ? -1 : 1);
            }}
          />
          <p className="text-xs text-slate-500">
            Enter saves and goes to the next line; Shift+Enter to the previous one.
          </p>
        </div>
      )}
    </PanelSection>
  );
}
