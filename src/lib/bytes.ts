const UNITS = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];

/** A size for people: "512 bytes", "3.2 GiB" (binary units, one decimal below 10). */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  if (unit === 0) return `${Math.round(value)} bytes`;
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${UNITS[unit]}`;
}
