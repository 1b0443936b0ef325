/** What the server answers to an agent's calls (the contract's ClaimedTask and friends). */
export interface ClaimedTask {
  id: string;
  process_id: string;
  corpus_id: string | null;
  worker_run_id: string | null;
  slug: string;
  run: number;
  chunk: number | null;
  token: string;
  command: string[];
  elements: { id: string; type: string }[];
  env: Record<string, string>;
}

export interface Registration {
  id: string;
  token: string;
  farm: { id: string; name: string };
}

export type FinalState = 'completed' | 'failed' | 'error' | 'stopped';
