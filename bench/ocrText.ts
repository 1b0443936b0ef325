/**
 * Measuring OCR against PAGE ground truth: the page's text in its reading order, both texts
 * normalised the same way (Unicode NFC, every run of white space one space), and the character
 * error rate (edit distance over the ground truth's length). Shared by the OCR benchmark and the
 * Tesseract worker's tests.
 */
import fs from 'node:fs';
import { parsePageXml } from '../server/imports/formats/pagexml';

/** The lines of a PAGE file's text regions, in reading order, without the empty ones. */
export function groundTruthLines(pageXmlPath: string): string[] {
  const page = parsePageXml(fs.readFileSync(pageXmlPath, 'utf8'));
  return page.regions
    .filter((region) => region.kind === 'text')
    .flatMap((region) => region.lines.map((line) => line.text))
    .filter((text) => text.trim() !== '');
}

export function normalise(text: string): string {
  return text.normalize('NFC').replace(/\s+/g, ' ').trim();
}

/** Levenshtein distance over code points, two rows at a time. */
export function editDistance(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  let previous = new Uint32Array(y.length + 1).map((_, j) => j);
  let current = new Uint32Array(y.length + 1);
  for (let i = 1; i <= x.length; i++) {
    current[0] = i;
    for (let j = 1; j <= y.length; j++) {
      const substitution = previous[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1);
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution);
    }
    [previous, current] = [current, previous];
  }
  return previous[y.length]!;
}

/** Character error rate of `hypothesis` against `reference`, both normalised first. */
export function cer(reference: string, hypothesis: string): number {
  const ref = normalise(reference);
  const hyp = normalise(hypothesis);
  return ref.length === 0 ? (hyp.length === 0 ? 0 : 1) : editDistance(ref, hyp) / [...ref].length;
}
