/** Byte counts as people read them. */

const UNITS = ['bytes', 'KB', 'MB', 'GB', 'TB'];

/** 1 byte, 512 bytes, 1.5 KB, 23 MB: decimal units, as file managers show them. */
export function formatSize(bytes: number): string {
  if (bytes === 1) return '1 byte';
  if (bytes < 1000) return `${bytes} bytes`;
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  const digits = value < 10 ? 1 : 0;
  return `${value.toFixed(digits).replace(/\.0$/, '')} ${UNITS[unit]}`;
}
