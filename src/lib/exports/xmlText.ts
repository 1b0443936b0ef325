/**
 * Writing text into XML 1.0 for the PAGE and ALTO exports. Text is kept as it is, code point for
 * code point (no Unicode normalization: combining marks and Private-Use-Area characters come out
 * byte for byte in UTF-8); only what XML 1.0 cannot hold at all is left out.
 */

/**
 * Whether XML 1.0 can hold the code point at all, even as a character reference: not C0 controls
 * other than tab, line feed and carriage return, not U+FFFE, U+FFFF or unpaired surrogates.
 */
function isXmlChar(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}

/** The text without the characters XML 1.0 cannot hold. */
export function xmlChars(text: string): string {
  if (!/[^\t\n\r -\uD7FF\uE000-\uFFFD]/.test(text)) return text;
  let out = '';
  // for…of walks code points; an unpaired surrogate comes alone and is dropped.
  for (const char of text) if (isXmlChar(char.codePointAt(0)!)) out += char;
  return out;
}

/**
 * Element content. A carriage return is written as a reference, since a parser turns a literal
 * one (and CR LF) into a line feed.
 */
export function escapeXmlText(text: string): string {
  return xmlChars(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\r/g, '&#13;');
}

/**
 * An attribute value between double quotes. Tabs and line breaks are references: a parser turns
 * the literal characters in an attribute into spaces.
 */
export function escapeXmlAttribute(text: string): string {
  return xmlChars(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;');
}

/** `name="value"` pairs, escaped, skipping undefined values. */
export function xmlAttributes(attributes: Record<string, string | number | undefined>): string {
  return Object.entries(attributes)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([name, value]) => ` ${name}="${escapeXmlAttribute(String(value))}"`)
    .join('');
}
