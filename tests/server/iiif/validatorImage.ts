/**
 * The IIIF Image API validator's test image (67352ccc-d1b0-11e1-89ae-279075081939): 1000×1000
 * pixels, ten by ten squares of 100 pixels, each of its own colour with its number written on
 * it. The colours are the validator's own table, read the way it reads them:
 * VALIDATOR_COLOURS[x][y] is the square in column x and row y.
 */
import sharp from 'sharp';

type Rgb = readonly [number, number, number];

export const VALIDATOR_IMAGE_ID = '67352ccc-d1b0-11e1-89ae-279075081939';
export const SIDE = 1000;
export const SQUARE = 100;

// prettier-ignore
export const VALIDATOR_COLOURS: readonly (readonly Rgb[])[] = [
  [[61, 170, 126], [61, 107, 178], [82, 85, 234], [164, 122, 110], [129, 226, 88], [91, 37, 121], [138, 128, 42], [6, 85, 234], [121, 109, 204], [65, 246, 84]],
  [[195, 133, 120], [171, 43, 102], [118, 45, 130], [242, 105, 171], [5, 85, 105], [113, 58, 41], [223, 69, 3], [45, 79, 140], [35, 117, 248], [121, 156, 184]],
  [[168, 92, 163], [28, 91, 143], [86, 41, 173], [111, 230, 29], [174, 189, 7], [18, 139, 88], [93, 168, 128], [35, 2, 14], [204, 105, 137], [18, 86, 128]],
  [[107, 55, 178], [251, 40, 184], [47, 36, 139], [2, 127, 170], [224, 12, 114], [133, 67, 108], [239, 174, 209], [85, 29, 156], [8, 55, 188], [240, 125, 7]],
  [[112, 167, 30], [166, 63, 161], [232, 227, 23], [74, 80, 135], [79, 97, 47], [145, 160, 80], [45, 160, 79], [12, 54, 215], [203, 83, 70], [78, 28, 46]],
  [[102, 193, 63], [225, 55, 91], [107, 194, 147], [167, 24, 95], [249, 214, 96], [167, 34, 136], [53, 254, 209], [172, 222, 21], [153, 77, 51], [137, 39, 183]],
  [[159, 182, 192], [128, 252, 173], [148, 162, 90], [192, 165, 115], [154, 102, 2], [107, 237, 62], [111, 236, 219], [129, 113, 172], [239, 204, 166], [60, 96, 37]],
  [[72, 172, 227], [119, 51, 100], [209, 85, 165], [87, 172, 159], [188, 42, 162], [99, 3, 54], [7, 42, 37], [105, 155, 100], [38, 220, 240], [98, 46, 2]],
  [[18, 223, 145], [189, 121, 17], [88, 3, 210], [181, 16, 43], [189, 39, 244], [123, 147, 116], [246, 148, 214], [223, 177, 199], [77, 18, 136], [235, 36, 21]],
  [[146, 137, 176], [84, 248, 55], [61, 144, 79], [110, 251, 49], [43, 105, 132], [165, 131, 55], [60, 23, 225], [147, 197, 226], [80, 67, 104], [161, 119, 182]],
];

// Seven-segment digits: a top, b top right, c bottom right, d bottom, e bottom left, f top left,
// g middle.
// prettier-ignore
const SEGMENTS = ['abcdef', 'bc', 'abdeg', 'abcdg', 'bcfg', 'acdfg', 'acdefg', 'abc', 'abcdefg', 'abcdfg'];
const DIGIT_W = 16;
const DIGIT_H = 30;
const STROKE = 4;

function fill(raw: Buffer, left: number, top: number, w: number, h: number, colour: Rgb) {
  for (let y = top; y < top + h; y += 1) {
    for (let x = left; x < left + w; x += 1) raw.set(colour, (y * SIDE + x) * 3);
  }
}

function drawDigit(raw: Buffer, digit: number, left: number, top: number) {
  const half = Math.floor(DIGIT_H / 2);
  const boxes: Record<string, [number, number, number, number]> = {
    a: [0, 0, DIGIT_W, STROKE],
    b: [DIGIT_W - STROKE, 0, STROKE, half],
    c: [DIGIT_W - STROKE, half, STROKE, DIGIT_H - half],
    d: [0, DIGIT_H - STROKE, DIGIT_W, STROKE],
    e: [0, half, STROKE, DIGIT_H - half],
    f: [0, 0, STROKE, half],
    g: [0, half - STROKE / 2, DIGIT_W, STROKE],
  };
  for (const segment of SEGMENTS[digit]!) {
    const [x, y, w, h] = boxes[segment]!;
    fill(raw, left + x, top + y, w, h, [0, 0, 0]);
  }
}

/** The test image as a PNG: each square in its colour, its number (row, column) in black. */
export async function validatorTestImage(): Promise<Buffer> {
  const raw = Buffer.alloc(SIDE * SIDE * 3);
  for (let x = 0; x < 10; x += 1) {
    for (let y = 0; y < 10; y += 1) {
      fill(raw, x * SQUARE, y * SQUARE, SQUARE, SQUARE, VALIDATOR_COLOURS[x]![y]!);
      const left = x * SQUARE + (SQUARE - 2 * DIGIT_W - 6) / 2;
      const top = y * SQUARE + (SQUARE - DIGIT_H) / 2;
      drawDigit(raw, y, left, top);
      drawDigit(raw, x, left + DIGIT_W + 6, top);
    }
  }
  return sharp(raw, { raw: { width: SIDE, height: SIDE, channels: 3 } })
    .png()
    .toBuffer();
}
