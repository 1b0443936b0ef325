import { spawnSync } from 'node:child_process';

/**
 * Whether Debian's poppler-utils (pdftotext, pdfinfo, pdfimages, pdftoppm) run here. CI installs
 * them (.ci/run), so there their absence fails the run instead of quietly skipping the PDF suite.
 */
export const hasPoppler = ['pdftotext', 'pdfinfo', 'pdfimages', 'pdftoppm'].every(
  (tool) => spawnSync(tool, ['-v']).status === 0,
);
if (!hasPoppler && process.env.CI === '1') {
  throw new Error('CI=1 but poppler-utils (pdftotext, pdfinfo, pdfimages, pdftoppm) is missing');
}
if (!hasPoppler) {
  console.warn(
    'poppler-utils is missing (Debian: apt-get install poppler-utils): the PDF export tests are ' +
      'skipped, its text layer is not checked.',
  );
}

/** A poppler tool's standard output; throws with its error output when it fails. */
export function poppler(tool: string, args: string[]): string {
  const result = spawnSync(tool, args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${tool} ${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}

export interface TextLineBox {
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
  /** The line's words joined by single spaces. */
  text: string;
}

const unescape = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

/** The lines of each page as `pdftotext -bbox-layout` finds them (y from the page's top). */
export function bboxLines(pdfFile: string): TextLineBox[][] {
  const html = poppler('pdftotext', ['-bbox-layout', pdfFile, '-']);
  return html
    .split('<page ')
    .slice(1)
    .map((page) =>
      [...page.matchAll(/<line ([^>]*)>([\s\S]*?)<\/line>/g)].map(([, attributes, body]) => {
        const number = (name: string) =>
          Number(new RegExp(`${name}="([^"]+)"`).exec(attributes ?? '')?.[1]);
        const words = [...(body ?? '').matchAll(/<word [^>]*>([\s\S]*?)<\/word>/g)].map(
          ([, word]) => unescape(word ?? ''),
        );
        return {
          xMin: number('xMin'),
          yMin: number('yMin'),
          xMax: number('xMax'),
          yMax: number('yMax'),
          text: words.join(' '),
        };
      }),
    );
}
