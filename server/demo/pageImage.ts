/**
 * Generated manuscript pages for the demo project: paper, ink "handwriting" drawn as strokes
 * (no fonts needed, so it renders the same on any machine) and the exact zones of what was
 * drawn, so the demo's regions and lines sit on the ink.
 */
import sharp from 'sharp';

export type Point = [number, number];

export interface DemoLine {
  polygon: Point[];
  baseline: Point[];
  text: string;
}

export interface DemoRegion {
  type: 'paragraph' | 'page_number' | 'marginalia';
  polygon: Point[];
  lines: DemoLine[];
}

export interface DemoPage {
  width: number;
  height: number;
  jpeg: Buffer;
  regions: DemoRegion[];
}

const SENTENCES = [
  'In the year of grace seventeen hundred and eighty nine',
  'before the undersigned notaries appeared in person',
  'the widow of the late master carpenter of this parish',
  'who declared that she sells and transfers to the buyer',
  'a house with its courtyard garden and outbuildings',
  'situated in the lower street near the old market',
  'bordered on one side by the lands of the chapter',
  'and on the other by the road leading to the mill',
  'for the price of four hundred pounds paid in coin',
  'of which the seller declares herself content',
  'done and passed in the study of the said notaries',
  'the parties having signed after reading',
  'item a chest of oak with its lock and key',
  'item six pewter plates and two copper pans',
  'item a bed with its curtains of green serge',
  'received the sum of twelve pounds for the rent',
  'of the meadow called the long field for one year',
  'the witnesses named below being present',
  'the buyer promises to pay the yearly dues',
  'to the lord of the manor as is the custom',
  'recorded at the office of the registry',
  'in witness whereof they have set their hands',
];

/** A small deterministic PRNG, so the demo looks the same on every start. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function round(point: Point): Point {
  return [Math.round(point[0]), Math.round(point[1])];
}

function box(x0: number, y0: number, x1: number, y1: number): Point[] {
  return [
    [x0, y0],
    [x0, y1],
    [x1, y1],
    [x1, y0],
    [x0, y0],
  ].map((p) => round(p as Point));
}

/** One word as a cursive scribble: loops whose height varies, along a sloping baseline. */
function wordPath(
  rand: () => number,
  x: number,
  baseY: number,
  width: number,
  xHeight: number,
  slope: number,
): string {
  const letters = Math.max(2, Math.round(width / (xHeight * 0.75)));
  const step = width / letters;
  let path = `M ${x.toFixed(1)} ${(baseY - slope * 0).toFixed(1)}`;
  for (let i = 0; i < letters; i += 1) {
    const left = x + i * step;
    const tall = rand() < 0.22 ? 1.9 : rand() < 0.12 ? -0.9 : 1;
    const top = baseY - slope * (left - x) - xHeight * tall;
    const right = left + step;
    const bottom = baseY - slope * (right - x);
    path += ` C ${(left + step * 0.1).toFixed(1)} ${top.toFixed(1)}, ${(left + step * 0.9).toFixed(1)} ${top.toFixed(1)}, ${right.toFixed(1)} ${bottom.toFixed(1)}`;
  }
  return path;
}

interface LineLayout {
  x: number;
  baseY: number;
  width: number;
  xHeight: number;
  slope: number;
  text: string;
}

function drawLine(rand: () => number, layout: LineLayout): { svg: string; line: DemoLine } {
  const { x, baseY, xHeight, slope, text } = layout;
  const words = text.split(' ');
  const totalChars = text.replace(/ /g, '').length;
  const gap = xHeight * 0.9;
  const usable = layout.width - gap * (words.length - 1);
  let cursor = x;
  const paths: string[] = [];
  for (const word of words) {
    const width = (usable * word.length) / totalChars;
    const wordBase = baseY - slope * (cursor - x);
    paths.push(wordPath(rand, cursor, wordBase, width, xHeight, slope));
    cursor += width + gap;
  }
  const end = x + layout.width;
  const rise = slope * layout.width;
  const top = xHeight * 2.1;
  const below = xHeight * 1.1;
  const polygon: Point[] = [
    round([x - 6, baseY - top]),
    round([x - 6, baseY + below]),
    round([end + 6, baseY - rise + below]),
    round([end + 6, baseY - rise - top]),
    round([x - 6, baseY - top]),
  ];
  return {
    svg: `<path d="${paths.join(' ')}" fill="none" stroke="#3a2a1b" stroke-width="${(xHeight / 7).toFixed(1)}" stroke-linecap="round" stroke-linejoin="round" opacity="0.9"/>`,
    line: { polygon, baseline: [round([x, baseY]), round([end, baseY - rise])], text },
  };
}

/** Renders page `index` (1-based) of the demo: deterministic for a given index. */
export async function renderDemoPage(
  index: number,
  width = 1600,
  height = 2200,
): Promise<DemoPage> {
  const rand = random(index * 7919 + 17);
  const margin = Math.round(width * 0.12);
  const xHeight = Math.round(height * 0.009);
  const lineGap = Math.round(xHeight * 5.2);
  const svg: string[] = [];
  const regions: DemoRegion[] = [];

  // Page number, top right.
  const number = String(index);
  const pn = drawLine(rand, {
    x: width - margin - xHeight * 3,
    baseY: margin * 0.6,
    width: xHeight * 1.6 * number.length,
    xHeight,
    slope: 0,
    text: number,
  });
  svg.push(pn.svg);
  regions.push({ type: 'page_number', polygon: pn.line.polygon, lines: [pn.line] });

  // The main text block.
  const lineCount = 14 + Math.floor(rand() * 6);
  const lines: DemoLine[] = [];
  const top = margin;
  let sentence = Math.floor(rand() * SENTENCES.length);
  for (let i = 0; i < lineCount; i += 1) {
    const text = SENTENCES[sentence % SENTENCES.length]!;
    sentence += 1;
    const full = width - 2 * margin;
    const lineWidth =
      i === lineCount - 1 ? full * (0.4 + rand() * 0.3) : full * (0.9 + rand() * 0.1);
    const drawn = drawLine(rand, {
      x: margin + (rand() - 0.5) * xHeight,
      baseY: top + lineGap * (i + 1),
      width: lineWidth,
      xHeight,
      slope: (rand() - 0.5) * 0.01,
      text,
    });
    svg.push(drawn.svg);
    lines.push(drawn.line);
  }
  const bottom = top + lineGap * lineCount + xHeight * 2;
  regions.push({
    type: 'paragraph',
    polygon: box(margin - 20, top + lineGap - xHeight * 3, width - margin + 20, bottom),
    lines,
  });

  // A note in the left margin on every other page.
  if (index % 2 === 0) {
    const noteLines: DemoLine[] = [];
    const noteX = margin * 0.12;
    const noteTop = top + lineGap * (2 + Math.floor(rand() * 4));
    for (const [i, text] of ['paid', 'in full'].entries()) {
      const drawn = drawLine(rand, {
        x: noteX,
        baseY: noteTop + i * lineGap * 0.8,
        width: margin * 0.7,
        xHeight: xHeight * 0.8,
        slope: 0,
        text,
      });
      svg.push(drawn.svg);
      noteLines.push(drawn.line);
    }
    regions.push({
      type: 'marginalia',
      polygon: box(
        noteX - 12,
        noteTop - xHeight * 2.5,
        noteX + margin * 0.7 + 12,
        noteTop + lineGap * 0.8 + xHeight * 1.5,
      ),
      lines: noteLines,
    });
  }

  const document = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
<defs><radialGradient id="paper" cx="50%" cy="45%" r="75%"><stop offset="0" stop-color="#f3e9d2"/><stop offset="1" stop-color="#e2d2ad"/></radialGradient></defs>
<rect width="100%" height="100%" fill="url(#paper)"/>
${svg.join('\n')}
</svg>`;
  const jpeg = await sharp(Buffer.from(document)).jpeg({ quality: 82 }).toBuffer();
  return { width, height, jpeg, regions };
}
