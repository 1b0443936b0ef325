const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86400],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/** "N unit(s) ago" up to 30 days, then an ISO date and time (spec 000 §9). */
export function relativeTime(iso: string, now: number = Date.now()): string {
  const date = new Date(iso);
  const seconds = Math.max(0, Math.round((now - date.getTime()) / 1000));
  if (seconds > 30 * 86400) return date.toISOString().slice(0, 19).replace('T', ' ');
  for (const [unit, size] of UNITS) {
    if (seconds >= size || unit === 'second') {
      const count = Math.floor(seconds / size);
      return `${count} ${unit}${count === 1 ? '' : 's'} ago`;
    }
  }
  return iso;
}
