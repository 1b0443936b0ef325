import type { OutboxEntry } from '@/offline/outboxEntry';

/**
 * The edits not on the server, as a JSON file the user can keep: what each one does, in order,
 * and why it has not reached the server, should this device's storage be lost.
 */
export function pendingChangesFile(
  entries: OutboxEntry[],
  describe: (entry: OutboxEntry) => string,
  now: Date = new Date(),
): { filename: string; text: string } {
  const changes = entries.map((entry) => ({
    kind: entry.kind,
    label: describe(entry),
    element: entry.entityId,
    project: entry.corpusId,
    payload: entry.payload,
    status: entry.status,
    error: entry.error,
    createdAt: new Date(entry.createdAt).toISOString(),
  }));
  return {
    filename: `folia-pending-changes-${now.toISOString().slice(0, 19).replace(/:/g, '-')}.json`,
    text: `${JSON.stringify({ exportedAt: now.toISOString(), changes }, null, 2)}\n`,
  };
}
