/** Truncation lengths of spec 000 §9. */
export const TRUNCATE = { select: 100, long: 80, short: 30, notification: 500, id: 8 } as const;

export function truncate(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length)}…` : text;
}
