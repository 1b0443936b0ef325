import { formatBytes } from '@/lib/bytes';
import type { Agent } from '@/api/processTypes';

/** "35 %" of the machine's cores busy (load per core, which passes 100 % when tasks queue). */
export function cpuText(agent: Pick<Agent, 'cpu_load'>): string | null {
  return agent.cpu_load === null ? null : `${Math.round(agent.cpu_load * 100)} %`;
}

/** "3.2 GiB of 16 GiB", or the total alone before the agent said what it uses. */
export function memoryText(agent: Pick<Agent, 'ram_used' | 'ram_total'>): string | null {
  if (agent.ram_total <= 0) return agent.ram_used === null ? null : formatBytes(agent.ram_used);
  if (agent.ram_used === null) return `${formatBytes(agent.ram_total)} in all`;
  return `${formatBytes(agent.ram_used)} of ${formatBytes(agent.ram_total)}`;
}

/** "8 cores, 1 GPU". */
export function hardwareText(agent: Pick<Agent, 'cpu_cores' | 'gpus'>): string {
  const parts = [];
  if (agent.cpu_cores > 0) parts.push(`${agent.cpu_cores} core${agent.cpu_cores === 1 ? '' : 's'}`);
  if (agent.gpus > 0) parts.push(`${agent.gpus} GPU${agent.gpus === 1 ? '' : 's'}`);
  return parts.join(', ');
}

/** A share for a bar, clamped to 0–1. */
export function share(used: number, total: number): number {
  return total > 0 ? Math.min(1, Math.max(0, used / total)) : 0;
}
