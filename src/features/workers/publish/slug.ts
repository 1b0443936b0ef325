/**
 * The slug suggested for a worker's name, in the characters the server accepts (letters,
 * digits, underscores, hyphens): "Line OCR (v2)" → "line-ocr-v2". Accents are dropped rather
 * than refused, so a French name still gets a slug.
 */
export function slugOf(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100);
}
