import { describe, expect, it } from 'vitest';
import { foldText, tokenSpans, tokenize } from '../../src/lib/search/fold';

/** Lines of /work/shared/data as they are in the ground truth (PAGE / ALTO). */
const REAL_LINES = [
  // OCR-D gt_structure_text, laube_europa0202_1837_0105.xml
  'Du biſt jetzt verlaſſen ',
  'Einſam, einſam, einſam ',
  'mein Mädchen zu ſuchen. Das Thier eilte raſtlos',
  'Morgens eins jener ſchlanken Steppenroſſe wiehernd',
  'ich groß geworden, hatte den Wolf gejagt, und',
  // CREMMA medieval, 0_36c2c_default.xml (U+0303, U+035B, U+0365 combining marks; ꝑ, ꝰ)
  'cite q\u0303 on appelle bethleem et rex juda a destre · la',
  'ꝑquoy la maison estoit appelle diversoire · do',
  'ẽtẽtivemẽt sans regarder ailleurs et molt bien',
  'celle saprouche p\u035Bes et vit ung ẽfant qui gesoit',
  'quel merveille veez voꝰ en cest enfãt qui gist',
  'ap\u035Bnes moy pour dieu les merveilles q\u0365 sont',
  // LECTAUREP bronod, alto/0005.xml
  "5 ..... Procuration ..... M~gr Le Comte d'Evreux au S. andré Marais.",
  'dud. Mariage ..... Antoine Masson et marie madel^e du Breüil V^e Brussart',
  'dud. ..... Obligãon reportée ..... Jacques Fery et Sa F^e a M~gr Le Comte',
];

describe('foldText', () => {
  it('folds case, accents, the long s, ß and the letters NFKD keeps whole', () => {
    expect(foldText('Menſchheit MENSCHHEIT')).toBe('menschheit menschheit');
    expect(foldText('Straße STRASSE ẞ')).toBe('strasse strasse ss');
    expect(foldText('Église société Über Noël')).toBe('eglise societe uber noel');
    expect(foldText('Æsop œuvre Ørsted Łódź đak ıi ꝛ')).toBe('aesop oeuvre orsted lodz dak ii r');
    expect(foldText('ﬁn ﬂ ² Ａ')).toBe('fin fl 2 a');
  });

  it('drops combining marks, typed precomposed or not', () => {
    expect(foldText('q\u0303lle')).toBe('qlle');
    expect(foldText('u\u035Bite')).toBe('uite');
    expect(foldText('q\u0365')).toBe('q');
    expect(foldText('ẽtẽtivemẽt')).toBe('etetivemet');
    expect(foldText('e\u0301')).toBe(foldText('é'));
  });

  it('drops Arabic and Hebrew vowel marks', () => {
    expect(foldText('كِتَابٌ')).toBe('كتاب');
    expect(foldText('שָׁלוֹם')).toBe('שלום');
  });

  it('keeps Private-Use-Area characters as they are', () => {
    expect(foldText('do\uE5DC \uF1AC')).toBe('do\uE5DC \uF1AC');
  });

  it('folds a final sigma like any sigma', () => {
    expect(foldText('ΟΔΟΣ')).toBe(foldText('οδοσ'));
    expect(foldText('οδος')).toBe('οδοσ');
  });
});

describe('tokenize', () => {
  it('splits on spaces, punctuation, hyphens, apostrophes and symbols', () => {
    expect(tokenize("Saint-Louis, l'abbé; M^re 1=1 a*b body:x")).toEqual([
      'saint',
      'louis',
      'l',
      'abbe',
      'm',
      're',
      '1',
      '1',
      'a',
      'b',
      'body',
      'x',
    ]);
    expect(tokenize('  ..... · — %% ')).toEqual([]);
  });

  it('keeps a word whole across its combining marks and private-use characters', () => {
    expect(tokenize('q\u0303lle do\uE5DC \uF1AC')).toEqual(['qlle', 'do\uE5DC', '\uF1AC']);
    expect(tokenize('ꝑquoy voꝰ')).toEqual(['ꝑquoy', 'voꝯ']);
  });

  it('reads the real ground truth into the words a reader sees', () => {
    expect(tokenize(REAL_LINES[0] as string)).toEqual(['du', 'bist', 'jetzt', 'verlassen']);
    expect(tokenize(REAL_LINES[5] as string)).toEqual(
      'cite q on appelle bethleem et rex juda a destre la'.split(' '),
    );
    expect(tokenize(REAL_LINES[10] as string)).toEqual(
      'apnes moy pour dieu les merveilles q sont'.split(' '),
    );
  });
});

describe('tokenSpans', () => {
  const check = (text: string) => {
    const spans = tokenSpans(text);
    expect(spans.map((s) => s.token)).toEqual(tokenize(text));
    for (const s of spans) {
      expect(s.start).toBeLessThan(s.end);
      // Each span, folded again, holds its word.
      expect(tokenize(text.slice(s.start, s.end))).toContain(s.token);
    }
    return spans;
  };

  it('gives the same words as tokenize on the real ground truth', () => {
    for (const line of REAL_LINES) check(line);
  });

  it('gives offsets in the original text when folding changes lengths', () => {
    const text = 'Die Straße, ﬁne q\u0303lle Menſchheit';
    const spans = check(text);
    const shown = spans.map((s) => text.slice(s.start, s.end));
    expect(shown).toEqual(['Die', 'Straße', 'ﬁne', 'q\u0303lle', 'Menſchheit']);
    expect(spans[1]).toEqual({ token: 'strasse', start: 4, end: 10 });
  });

  it('includes the combining marks after a word’s last letter', () => {
    const text = 'qui q\u0365 sont';
    const spans = check(text);
    expect(spans[1]).toEqual({ token: 'q', start: 4, end: 6 });
    expect(text.slice(4, 6)).toBe('q\u0365');
  });

  it('counts UTF-16 units for characters outside the BMP', () => {
    const text = '𝔄𝔟𝔠 x';
    const spans = check(text);
    expect(spans).toEqual([
      { token: 'abc', start: 0, end: 6 },
      { token: 'x', start: 7, end: 8 },
    ]);
  });

  it('agrees with tokenize on random mixes of tricky characters', () => {
    const alphabet = [
      'a',
      'Z',
      'ſ',
      'ß',
      'ẞ',
      'é',
      'e\u0301',
      '\u0303',
      '\u035B',
      ' ',
      '-',
      "'",
      '·',
      'ﬁ',
      '½',
      'Σ',
      'ς',
      'İ',
      '\uE5DC',
      '\uF1AC',
      'كِ',
      'שָׁ',
      '𝔄',
      '1',
      '²',
      '.',
      'Æ',
      'ǅ',
    ];
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let n = 0; n < 300; n++) {
      let text = '';
      const length = Math.floor(random() * 12);
      for (let i = 0; i < length; i++) text += alphabet[Math.floor(random() * alphabet.length)];
      check(text);
    }
  });
});
