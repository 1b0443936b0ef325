/**
 * What each agent last said of its machine (CPU load, memory in use), for the agents page. Kept
 * in memory, not in the database: it is a reading of the moment, replaced every few seconds,
 * and writing it on every heartbeat of every agent would be a write per beat for nothing a
 * restart needs — the next beat brings it back.
 */
export interface AgentReport {
  cpu_load: number;
  ram_used: number;
}

const reports = new Map<string, AgentReport>();

export function noteAgentReport(agentId: string, report: Partial<AgentReport>): void {
  if (report.cpu_load === undefined || report.ram_used === undefined) return;
  reports.set(agentId, { cpu_load: report.cpu_load, ram_used: report.ram_used });
}

/** The agent's last report, or null when it has sent none since the server started. */
export function agentReport(agentId: string): AgentReport | null {
  return reports.get(agentId) ?? null;
}
