/**
 * The search syntax, as a table every engine must answer the same way (issue 16): the reference
 * evaluator (tests/search/lib.test.ts), FTS5 and PostgreSQL through the API, MiniSearch on the
 * device. Each engine loads SYNTAX_DOCS — each as the text of its `source`: an element's name, a
 * transcription's text, a metadata value, a classification's class name, an entity's text — runs
 * every SYNTAX_CASES query and expects exactly `hits` (document keys, sorted) or the `error`.
 *
 * The texts come from /work/shared/data where they can: the long s of Laube's "Europa" (1837)
 * and Bebel's "Die Frau" (1879) from OCR-D's ground truth, the tildes and combining marks
 * (U+0303, U+035B, U+0365) of the CREMMA medieval manuscript (UPenn Ms. Codex 660), the notary
 * register of LECTAUREP. None of those holds a Private-Use-Area character, so `fr-mufi-pua` uses
 * two MUFI ones (U+E5DC, U+F1AC). The expected hits are written by hand from these texts.
 */

export type SyntaxSource =
  'element' | 'transcription' | 'metadata' | 'classification' | 'transcription_entity';

export interface SyntaxDoc {
  key: string;
  source: SyntaxSource;
  text: string;
}

export type SyntaxCase = { query: string; hits: string[] } | { query: string; error: string };

export const SYNTAX_DOCS: SyntaxDoc[] = [
  // German with the long s (ſ), umlauts and ß.
  { key: 'de-verlassen', source: 'transcription', text: 'Du biſt jetzt verlaſſen' },
  { key: 'de-einsam', source: 'transcription', text: 'Einſam, einſam, einſam' },
  { key: 'de-menschheit-longs', source: 'transcription', text: 'Die Menſchheit iſt groß geworden' },
  { key: 'de-menschheit-caps', source: 'element', text: 'MENSCHHEIT UND ZUKUNFT' },
  {
    key: 'de-grossproduktion',
    source: 'transcription',
    text: 'tigkeit ist in die Grossproduktion übergegangen',
  },
  { key: 'de-traenen', source: 'transcription', text: 'die Thränen ſtromweis über das Geſicht' },
  { key: 'de-uber-plain', source: 'metadata', text: 'uber alles' },
  { key: 'de-verlagsvermerk', source: 'classification', text: 'Verlagsvermerk' },
  { key: 'de-stadt-land', source: 'transcription', text: 'zwiſchen Stadt- und Landbevölkerung' },
  // French: accents, apostrophes, hyphenated names, the notary register's abbreviations.
  { key: 'fr-saint-louis', source: 'element', text: 'Église Saint-Louis' },
  { key: 'fr-saint-louis-spaced', source: 'metadata', text: 'rue saint louis' },
  { key: 'fr-louis-saint', source: 'transcription', text: 'Louis saint Marcel' },
  { key: 'fr-eglise-plain', source: 'element', text: 'Eglise de Paris' },
  {
    key: 'fr-societe',
    source: 'transcription',
    text: 'Societé ..... Jean nicolas Poulain et michel Wilmot.',
  },
  {
    key: 'fr-quittance',
    source: 'transcription',
    text: 'Quittance ..... M^re Gabriel Bernard de Rieux à M^re Jules de franquinie',
  },
  { key: 'fr-evreux', source: 'metadata', text: "M~gr Le Comte d'Evreux" },
  { key: 'fr-abbe', source: 'element', text: "l'abbé Grégoire" },
  { key: 'fr-entity-paris', source: 'transcription_entity', text: 'Paris' },
  { key: 'fr-fevrier-1742', source: 'element', text: 'Fevrier 1742' },
  // Medieval French: precomposed tildes (ẽ, ã) and combining marks after a letter.
  { key: 'fr-sapience', source: 'transcription', text: 'Sapiẽ luy demãde damoiselle u\u035Bite' },
  { key: 'fr-qlle', source: 'transcription', text: 'luy demanda q\u0303lle chose elle regardoit' },
  {
    key: 'fr-qi',
    source: 'transcription_entity',
    text: 'ap\u035Bnes moy pour dieu les merveilles q\u0365 sont',
  },
  // MUFI Private-Use-Area characters, kept as they are: part of the word "do" + U+E5DC, and a
  // word of its own.
  { key: 'fr-mufi-pua', source: 'transcription', text: 'do\uE5DC \uF1AC pucelle' },
  // Right-to-left scripts, with and without their vowel marks.
  { key: 'ar-kitab-vowelled', source: 'transcription', text: 'كِتَابٌ جَدِيدٌ' },
  { key: 'ar-kitab-plain', source: 'metadata', text: 'هذا كتاب' },
  { key: 'he-shalom-niqqud', source: 'element', text: 'שָׁלוֹם עוֹלָם' },
  { key: 'he-shalom-plain', source: 'classification', text: 'שלום' },
  // Digits, and words that look like query or SQL syntax.
  { key: 'num-folio', source: 'metadata', text: 'folio 17v, 1742-1743' },
  { key: 'ops-text', source: 'metadata', text: 'body: rien ; 1=1 near and or NOT' },
];

export const SYNTAX_CASES: SyntaxCase[] = [
  // One word; several words are OR'ed.
  { query: 'einsam', hits: ['de-einsam'] },
  { query: 'jetzt einsam', hits: ['de-einsam', 'de-verlassen'] },
  { query: 'jetzt OR einsam', hits: ['de-einsam', 'de-verlassen'] },
  { query: 'jetzt | einsam', hits: ['de-einsam', 'de-verlassen'] },
  { query: '"einsam"', hits: ['de-einsam'] },
  { query: '"einsam"*', hits: ['de-einsam'] },
  { query: 'jetzt|einsam', hits: ['de-einsam', 'de-verlassen'] },
  { query: 'einsam einsam EINSAM', hits: ['de-einsam'] },
  // AND.
  { query: 'menschheit AND gross', hits: ['de-menschheit-longs'] },
  { query: 'menschheit + zukunft', hits: ['de-menschheit-caps'] },
  { query: 'menschheit+ist', hits: ['de-menschheit-longs'] },
  { query: 'ist AND die AND grossproduktion', hits: ['de-grossproduktion'] },
  // Left to right, no precedence.
  { query: 'menschheit + zukunft einsam', hits: ['de-einsam', 'de-menschheit-caps'] },
  { query: 'einsam menschheit + zukunft', hits: ['de-menschheit-caps'] },
  // Parentheses, nested.
  { query: 'einsam (menschheit + zukunft)', hits: ['de-einsam', 'de-menschheit-caps'] },
  {
    query: '(einsam menschheit) + (zukunft | gross)',
    hits: ['de-menschheit-caps', 'de-menschheit-longs'],
  },
  {
    query: '((saint + louis) + -(rue | eglise)) | wilmot',
    hits: ['fr-louis-saint', 'fr-societe'],
  },
  { query: '(verl* + -verlassen) einsam', hits: ['de-einsam', 'de-verlagsvermerk'] },
  { query: '(((einsam)))', hits: ['de-einsam'] },
  // Negation.
  {
    query: '-einsam',
    hits: [
      'ar-kitab-plain',
      'ar-kitab-vowelled',
      'de-grossproduktion',
      'de-menschheit-caps',
      'de-menschheit-longs',
      'de-stadt-land',
      'de-traenen',
      'de-uber-plain',
      'de-verlagsvermerk',
      'de-verlassen',
      'fr-abbe',
      'fr-eglise-plain',
      'fr-entity-paris',
      'fr-evreux',
      'fr-fevrier-1742',
      'fr-louis-saint',
      'fr-mufi-pua',
      'fr-qi',
      'fr-qlle',
      'fr-quittance',
      'fr-saint-louis',
      'fr-saint-louis-spaced',
      'fr-sapience',
      'fr-societe',
      'he-shalom-niqqud',
      'he-shalom-plain',
      'num-folio',
      'ops-text',
    ],
  },
  {
    // `a -c` is a OR (NOT c).
    query: 'einsam -jetzt',
    hits: [
      'ar-kitab-plain',
      'ar-kitab-vowelled',
      'de-einsam',
      'de-grossproduktion',
      'de-menschheit-caps',
      'de-menschheit-longs',
      'de-stadt-land',
      'de-traenen',
      'de-uber-plain',
      'de-verlagsvermerk',
      'fr-abbe',
      'fr-eglise-plain',
      'fr-entity-paris',
      'fr-evreux',
      'fr-fevrier-1742',
      'fr-louis-saint',
      'fr-mufi-pua',
      'fr-qi',
      'fr-qlle',
      'fr-quittance',
      'fr-saint-louis',
      'fr-saint-louis-spaced',
      'fr-sapience',
      'fr-societe',
      'he-shalom-niqqud',
      'he-shalom-plain',
      'num-folio',
      'ops-text',
    ],
  },
  { query: 'menschheit + -zukunft', hits: ['de-menschheit-longs'] },
  { query: 'verl* AND -verlassen', hits: ['de-verlagsvermerk'] },
  {
    query: '-(menschheit einsam)',
    hits: [
      'ar-kitab-plain',
      'ar-kitab-vowelled',
      'de-grossproduktion',
      'de-stadt-land',
      'de-traenen',
      'de-uber-plain',
      'de-verlagsvermerk',
      'de-verlassen',
      'fr-abbe',
      'fr-eglise-plain',
      'fr-entity-paris',
      'fr-evreux',
      'fr-fevrier-1742',
      'fr-louis-saint',
      'fr-mufi-pua',
      'fr-qi',
      'fr-qlle',
      'fr-quittance',
      'fr-saint-louis',
      'fr-saint-louis-spaced',
      'fr-sapience',
      'fr-societe',
      'he-shalom-niqqud',
      'he-shalom-plain',
      'num-folio',
      'ops-text',
    ],
  },
  { query: '-"saint louis" + louis', hits: ['fr-louis-saint'] },
  { query: '--einsam', hits: ['de-einsam'] },
  // A hyphen with a space after it negates nothing: this is einsam OR jetzt.
  { query: 'einsam - jetzt', hits: ['de-einsam', 'de-verlassen'] },
  { query: '-*', hits: [] },
  { query: 'einsam + *', hits: ['de-einsam'] },
  // Phrases: consecutive words, in order, across hyphens and punctuation.
  { query: '"saint louis"', hits: ['fr-saint-louis', 'fr-saint-louis-spaced'] },
  { query: '"louis saint"', hits: ['fr-louis-saint'] },
  { query: '"gregoire abbe"', hits: [] },
  { query: '"louis marcel"', hits: [] },
  { query: '"stadt und"', hits: ['de-stadt-land'] },
  { query: '"jean nicolas poulain"', hits: ['fr-societe'] },
  { query: '"saint-louis"', hits: ['fr-saint-louis', 'fr-saint-louis-spaced'] },
  // Operators and stars inside quotes are words or separators.
  { query: '"near and OR"', hits: ['ops-text'] },
  { query: '"verl*"', hits: [] },
  // A hyphenated (or otherwise split) word is the phrase of its parts.
  { query: 'saint-louis', hits: ['fr-saint-louis', 'fr-saint-louis-spaced'] },
  { query: 'Stadt-und', hits: ['de-stadt-land'] },
  { query: "l'abbé", hits: ['fr-abbe'] },
  { query: "d'Évreux", hits: ['fr-evreux'] },
  // Prefixes.
  { query: 'verl*', hits: ['de-verlagsvermerk', 'de-verlassen'] },
  { query: 'gross*', hits: ['de-grossproduktion', 'de-menschheit-longs'] },
  { query: 'zzz*', hits: [] },
  { query: '17*', hits: ['fr-fevrier-1742', 'num-folio'] },
  { query: 'do*', hits: ['fr-mufi-pua'] },
  { query: 'كت*', hits: ['ar-kitab-plain', 'ar-kitab-vowelled'] },
  { query: '(zzz* | verla*) + -verlagsvermerk', hits: ['de-verlassen'] },
  // The long s both ways, and case.
  { query: 'menschheit', hits: ['de-menschheit-caps', 'de-menschheit-longs'] },
  { query: 'Menſchheit', hits: ['de-menschheit-caps', 'de-menschheit-longs'] },
  { query: 'MENSCHHEIT', hits: ['de-menschheit-caps', 'de-menschheit-longs'] },
  { query: 'biſt', hits: ['de-verlassen'] },
  { query: 'EINSAM', hits: ['de-einsam'] },
  { query: 'WiLmOt', hits: ['fr-societe'] },
  // ß and ss.
  { query: 'groß', hits: ['de-menschheit-longs'] },
  { query: 'gross', hits: ['de-menschheit-longs'] },
  { query: 'Großproduktion', hits: ['de-grossproduktion'] },
  // Accents both ways.
  { query: 'église', hits: ['fr-eglise-plain', 'fr-saint-louis'] },
  { query: 'eglise', hits: ['fr-eglise-plain', 'fr-saint-louis'] },
  { query: 'société', hits: ['fr-societe'] },
  { query: 'Societe', hits: ['fr-societe'] },
  { query: 'über', hits: ['de-traenen', 'de-uber-plain'] },
  { query: 'uber', hits: ['de-traenen', 'de-uber-plain'] },
  { query: 'thranen', hits: ['de-traenen'] },
  // Combining marks, typed with and without.
  { query: 'q\u0303lle', hits: ['fr-qlle'] },
  { query: 'qlle', hits: ['fr-qlle'] },
  { query: 'u\u035Bite', hits: ['fr-sapience'] },
  { query: 'uite', hits: ['fr-sapience'] },
  { query: 'demãde', hits: ['fr-sapience'] },
  { query: 'sapie', hits: ['fr-sapience'] },
  { query: 'q\u0365', hits: ['fr-qi'] },
  // Private-Use-Area characters are part of the word.
  { query: 'do\uE5DC', hits: ['fr-mufi-pua'] },
  { query: '\uF1AC', hits: ['fr-mufi-pua'] },
  { query: 'do', hits: [] },
  // Arabic and Hebrew, with and without vowel marks.
  { query: 'كتاب', hits: ['ar-kitab-plain', 'ar-kitab-vowelled'] },
  { query: 'كِتَابٌ', hits: ['ar-kitab-plain', 'ar-kitab-vowelled'] },
  { query: 'جديد', hits: ['ar-kitab-vowelled'] },
  { query: 'שלום', hits: ['he-shalom-niqqud', 'he-shalom-plain'] },
  { query: 'שָׁלוֹם', hits: ['he-shalom-niqqud', 'he-shalom-plain'] },
  { query: '"שלום עולם"', hits: ['he-shalom-niqqud'] },
  // Digits.
  { query: '1742', hits: ['fr-fevrier-1742', 'num-folio'] },
  { query: '17v', hits: ['num-folio'] },
  // Every document: a lone *, an empty or blank query, a lone -.
  ...['*', '', '   ', '-'].map((query) => ({
    query,
    hits: [
      'ar-kitab-plain',
      'ar-kitab-vowelled',
      'de-einsam',
      'de-grossproduktion',
      'de-menschheit-caps',
      'de-menschheit-longs',
      'de-stadt-land',
      'de-traenen',
      'de-uber-plain',
      'de-verlagsvermerk',
      'de-verlassen',
      'fr-abbe',
      'fr-eglise-plain',
      'fr-entity-paris',
      'fr-evreux',
      'fr-fevrier-1742',
      'fr-louis-saint',
      'fr-mufi-pua',
      'fr-qi',
      'fr-qlle',
      'fr-quittance',
      'fr-saint-louis',
      'fr-saint-louis-spaced',
      'fr-sapience',
      'fr-societe',
      'he-shalom-niqqud',
      'he-shalom-plain',
      'num-folio',
      'ops-text',
    ],
  })),
  // Words that fold to nothing find nothing.
  { query: '"%%%"', hits: [] },
  { query: '%%%', hits: [] },
  { query: ';', hits: [] },
  { query: '{', hits: [] },
  // SQL and full-text syntax typed as text: just words.
  { query: "' OR 1=1 --", hits: ['ops-text'] },
  { query: 'NEAR(jetzt wilmot)', hits: ['de-verlassen', 'fr-societe', 'ops-text'] },
  { query: 'body:rien', hits: ['ops-text'] },
  { query: 'body:x', hits: [] },
  { query: '^einsam', hits: ['de-einsam'] },
  { query: 'wilmot AND', hits: ['fr-societe'] },
  { query: 'OR einsam', hits: ['de-einsam'] },
  { query: 'einsam -', hits: ['de-einsam'] },
  { query: 'and', hits: ['ops-text'] },
  { query: 'NOT', hits: ['ops-text'] },
  { query: 'a '.repeat(500), hits: ['fr-quittance'] },
  // Errors.
  { query: '"saint louis', error: 'The query has a quote that is not closed.' },
  { query: '"a" "b', error: 'The query has a quote that is not closed.' },
  { query: '(einsam', error: 'The query has unbalanced parentheses.' },
  { query: 'einsam)', error: 'The query has unbalanced parentheses.' },
  { query: ')einsam(', error: 'The query has unbalanced parentheses.' },
  { query: 'a'.repeat(1001), error: 'Ensure this field has no more than 1000 characters.' },
  { query: '('.repeat(1000), error: 'The query has unbalanced parentheses.' },
  { query: '"'.repeat(999), error: 'The query has a quote that is not closed.' },
];
