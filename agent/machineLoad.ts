/**
 * How busy the agent's machine is, sent with each heartbeat for the agents page: the 1-minute
 * load average per core (os.loadavg is 0 on Windows, which then reports an idle machine) and
 * the memory in use.
 */
import os from 'node:os';

export function machineLoad(): { cpu_load: number; ram_used: number } {
  const cores = Math.max(1, os.cpus().length);
  const load = os.loadavg()[0] ?? 0;
  return {
    cpu_load: Math.round((load / cores) * 1000) / 1000,
    ram_used: Math.max(0, os.totalmem() - os.freemem()),
  };
}
