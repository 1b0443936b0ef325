import { useId, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import {
  MAX_CHUNKS,
  farmsQuery,
  processConfigurationKeys,
  startProcess,
} from '@/api/processConfiguration';
import { processKeys } from '@/api/processes';
import type { Process } from '@/api/processTypes';
import { GuardedButton } from '@/components/GuardedButton';
import { useNeedsNetwork } from '@/components/NeedsNetwork';
import { notifyError } from '@/components/notifications/store';
import { ui } from '@/components/styles';

/** The start: elements split in 1 to 10 chunks, on a farm; then the process' details. */
export function StartProcessForm({ process, hasRuns }: { process: Process; hasRuns: boolean }) {
  const id = useId();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const offline = useNeedsNetwork();
  const farms = useQuery(farmsQuery);
  const [chunks, setChunks] = useState(String(process.chunks || 1));
  const [farmId, setFarmId] = useState(process.farm?.id ?? '');
  const chunkCount = Number(chunks);
  const chunksValid = Number.isInteger(chunkCount) && chunkCount >= 1 && chunkCount <= MAX_CHUNKS;

  const start = useMutation({
    mutationFn: () =>
      startProcess(process.id, { chunks: chunkCount, ...(farmId ? { farm: farmId } : {}) }),
    onSuccess: (started) => {
      queryClient.setQueryData(processConfigurationKeys.process(process.id), started);
      // The details and the list read it afresh, started.
      void queryClient.invalidateQueries({ queryKey: processKeys.all });
      void navigate({
        to: '/process/$id/{-$selectedRun}',
        params: { id: process.id, selectedRun: undefined },
      });
    },
    onError: (error) => notifyError(error),
  });

  const blocked =
    offline ??
    (!hasRuns
      ? 'Add a worker before starting the process'
      : !chunksValid
        ? `Chunks must be a whole number from 1 to ${MAX_CHUNKS}`
        : null);

  return (
    <form
      aria-label="Start options"
      className={`${ui.card} flex flex-wrap items-end gap-3`}
      onSubmit={(event) => {
        event.preventDefault();
        if (!blocked && !start.isPending) start.mutate();
      }}
    >
      <h2 className="w-full text-lg font-semibold text-slate-900">Start</h2>
      <div className="w-28">
        <label htmlFor={`${id}-chunks`} className={ui.label}>
          Chunks
        </label>
        <input
          id={`${id}-chunks`}
          type="number"
          min={1}
          max={MAX_CHUNKS}
          step={1}
          className={ui.input}
          value={chunks}
          aria-invalid={!chunksValid || undefined}
          onChange={(event) => setChunks(event.target.value)}
        />
      </div>
      <div className="min-w-48 grow">
        <label htmlFor={`${id}-farm`} className={ui.label}>
          Farm
        </label>
        <select
          id={`${id}-farm`}
          className={ui.input}
          value={farmId}
          disabled={farms.isPending}
          onChange={(event) => setFarmId(event.target.value)}
        >
          {/* The server then picks its default farm; the farms listed may include it by name. */}
          <option value="">Server default</option>
          {(farms.data ?? []).map((farm) => (
            <option key={farm.id} value={farm.id}>
              {farm.name}
            </option>
          ))}
        </select>
      </div>
      <GuardedButton
        type="submit"
        blocked={blocked}
        className={ui.primaryButton}
        disabled={start.isPending}
      >
        {start.isPending ? 'Please wait…' : 'Start process'}
      </GuardedButton>
    </form>
  );
}
