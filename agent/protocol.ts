/**
 * The agent protocol's messages, as the server sends and the agent reads them. The server
 * imports these types from here so that both sides keep one definition; this file imports
 * nothing, so the agent still depends on nothing of the server's.
 */

/** One task an agent claimed (the contract's ClaimedTask). */
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

/** The answer to `POST ponos/agent/register/`. */
export interface Registration {
  id: string;
  token: string;
  farm: { id: string; name: string };
}

/**
 * The body of `POST ponos/agent/heartbeat/`: the tasks the agent still runs, and how busy its
 * machine is (for the agents page): the 1-minute load average per CPU core (1 = every core
 * busy) and the memory in use, in bytes.
 */
export interface HeartbeatBody {
  running: string[];
  cpu_load?: number;
  ram_used?: number;
}

/** The answer to a heartbeat: the tasks the agent must kill. */
export interface HeartbeatAnswer {
  stop: string[];
}

/** The answer to `POST ponos/agent/claim/`. */
export interface ClaimAnswer {
  tasks: ClaimedTask[];
}

export type FinalState = 'completed' | 'failed' | 'error' | 'stopped';
