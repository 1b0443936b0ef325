import { describe, expect, it } from 'vitest';
import {
  CONFIGURATION_MESSAGES,
  FIELD_TYPES,
  defaultConfiguration,
  modelReferences,
  normalizeConfiguration,
  sameAsDefault,
  schemaProblems,
  validateConfiguration,
  withDefaults,
  type UserConfiguration,
} from '@/lib/workerConfiguration';

const MODEL_ID = '3f2a7c1e-9b4d-4e8a-a1f0-2c6d8e9b0a17';
const OTHER_MODEL_ID = '0c2f3b1a-5d4e-4f6a-8b7c-9d0e1f2a3b4c';

/** One field of every type, most optional so each test sets only what it checks. */
const SCHEMA: UserConfiguration = {
  batch_size: { title: 'Batch size', type: 'int', default: 8 },
  threshold: { title: 'Threshold', type: 'float', required: false },
  label: { title: 'Label', type: 'string', required: false },
  notes: { title: 'Notes', type: 'text', multiline: true, required: false },
  mode: { title: 'Mode', type: 'enum', choices: ['fast', 'accurate'], default: 'fast' },
  verbose: { title: 'Verbose', type: 'bool', default: false },
  mapping: { title: 'Mapping', type: 'dict', required: false },
  sizes: { title: 'Sizes', type: 'list', subtype: 'int', required: false },
  model: { title: 'Model', type: 'model', required: false },
  token: { title: 'Token', type: 'secret', required: false },
  zone_type: { title: 'Zone type', type: 'element_type', required: false },
  parent: { title: 'Parent worker', type: 'worker_version', required: false },
  options: {
    title: 'Options',
    type: 'group',
    children: {
      size: { title: 'Size', type: 'int', default: 3 },
      backbone: { title: 'Backbone', type: 'model', required: false },
    },
  },
};

function problemsOf(values: unknown, schema: UserConfiguration = SCHEMA) {
  return validateConfiguration(schema, values);
}

describe('validateConfiguration: the whole configuration', () => {
  it('accepts values of every type', () => {
    expect(
      problemsOf({
        batch_size: 16,
        threshold: 0.5,
        label: 'x',
        notes: 'line one\nline two',
        mode: 'accurate',
        verbose: true,
        mapping: { a: 'b', n: 1, yes: true },
        sizes: [1, 2, 3],
        model: MODEL_ID,
        token: 'my-secret',
        zone_type: 'text_line',
        parent: OTHER_MODEL_ID,
        options: { size: 4, backbone: MODEL_ID },
      }),
    ).toEqual([]);
  });

  it.each([
    ['an empty object', {}],
    ['an array', [1, 2]],
    ['a string', 'batch_size=3'],
    ['null', null],
    ['a number', 3],
  ])('refuses %s: Please enter a valid JSON configuration', (_name, values) => {
    expect(problemsOf(values)).toEqual([
      { key: '', message: 'Please enter a valid JSON configuration' },
    ]);
  });

  it('refuses a key the schema does not have: Unrecognised field', () => {
    expect(problemsOf({ batch_size: 3, colour: 'red' })).toEqual([
      { key: 'colour', message: 'Unrecognised field' },
    ]);
  });

  it('refuses a key a group does not have, at its dotted path', () => {
    expect(problemsOf({ options: { size: 2, depth: 3 } })).toEqual([
      { key: 'options.depth', message: 'Unrecognised field' },
    ]);
  });
});

describe('validateConfiguration: field checks (spec 000 §5)', () => {
  it.each([
    ['batch_size', 'three', 'Value must be a valid integer.'],
    ['batch_size', 2.5, 'Value must be a valid integer.'],
    ['batch_size', '3', 'Value must be a valid integer.'],
    ['threshold', 'high', 'Value must be a valid float.'],
    ['threshold', true, 'Value must be a valid float.'],
    ['label', 12, 'Value must be a valid string.'],
    ['notes', ['a'], 'Value must be a valid string.'],
    ['token', 5, 'Value must be a valid string.'],
    ['zone_type', false, 'Value must be a valid string.'],
    ['mode', 'slow', 'slow is not a valid option.'],
    ['mode', 3, '3 is not a valid option.'],
    ['verbose', 'yes', 'Value must be a valid boolean.'],
    ['verbose', 1, 'Value must be a valid boolean.'],
    ['mapping', ['a'], 'Value must be a valid dictionary.'],
    ['mapping', 'a=b', 'Value must be a valid dictionary.'],
    ['mapping', { a: { nested: 1 } }, 'Value must be a valid dictionary.'],
    ['sizes', [1, 'two'], 'Value must be a valid list of int.'],
    ['sizes', [1.5], 'Value must be a valid list of int.'],
    ['sizes', 3, 'Value must be a valid list of int.'],
    ['model', 'not-a-uuid', 'Value must be a valid UUID'],
    ['model', 42, 'Value must be a valid UUID'],
    ['parent', 'abc', 'Value must be a valid UUID'],
  ])('%s = %j: %s', (key, value, message) => {
    expect(problemsOf({ [key]: value })).toEqual([{ key, message }]);
  });

  it.each([
    ['float', [0.5, 2], 'oops'],
    ['string', ['a', 'b'], 1],
    ['bool', [true, false], 'true'],
  ] as const)('a list of %s takes only %s items', (subtype, good, bad) => {
    const schema: UserConfiguration = { items: { title: 'Items', type: 'list', subtype } };
    expect(problemsOf({ items: good }, schema)).toEqual([]);
    expect(problemsOf({ items: [...good, bad] }, schema)).toEqual([
      { key: 'items', message: `Value must be a valid list of ${subtype}.` },
    ]);
  });

  it('checks group children at their dotted path', () => {
    expect(problemsOf({ options: { size: 'big', backbone: 'nope' } })).toEqual([
      { key: 'options.size', message: 'Value must be a valid integer.' },
      { key: 'options.backbone', message: 'Value must be a valid UUID' },
    ]);
  });

  it('refuses a group value that is not an object', () => {
    expect(problemsOf({ options: 3 })).toEqual([
      { key: 'options', message: 'Value must be a valid dictionary.' },
    ]);
  });
});

describe('validateConfiguration: required fields', () => {
  const schema: UserConfiguration = {
    name: { title: 'Name', type: 'string' },
    count: { title: 'Count', type: 'int', required: true, default: 1 },
    hint: { title: 'Hint', type: 'string', required: false },
    group: { title: 'Group', type: 'group', children: { depth: { title: 'Depth', type: 'int' } } },
  };

  it('a required field without a default left empty: This field is required.', () => {
    expect(problemsOf({ hint: 'h', group: { depth: 1 } }, schema)).toEqual([
      { key: 'name', message: 'This field is required.' },
    ]);
    expect(problemsOf({ name: '', group: { depth: 1 } }, schema)).toEqual([
      { key: 'name', message: 'This field is required.' },
    ]);
    expect(problemsOf({ name: null, group: { depth: 1 } }, schema)).toEqual([
      { key: 'name', message: 'This field is required.' },
    ]);
  });

  it('fields are required unless they say required: false', () => {
    expect(problemsOf({ name: 'n', group: { depth: 2 } }, schema)).toEqual([]);
  });

  it('a required child of a missing group is reported at its path', () => {
    expect(problemsOf({ name: 'n' }, schema)).toEqual([
      { key: 'group.depth', message: 'This field is required.' },
    ]);
  });

  it('an empty list counts as empty', () => {
    const lists: UserConfiguration = { ids: { title: 'Ids', type: 'list', subtype: 'int' } };
    expect(problemsOf({ ids: [] }, lists)).toEqual([
      { key: 'ids', message: 'This field is required.' },
    ]);
  });
});

describe('schemaProblems', () => {
  it('accepts a schema using every field type', () => {
    expect(schemaProblems(SCHEMA)).toEqual([]);
    const types = new Set<string>();
    const collect = (schema: UserConfiguration) =>
      Object.values(schema).forEach((field) => {
        types.add(field.type);
        if (field.children) collect(field.children);
      });
    collect(SCHEMA);
    expect([...types].sort()).toEqual([...FIELD_TYPES].sort());
  });

  it('refuses what is not an object of fields', () => {
    for (const schema of [null, [], 'x', 3]) {
      expect(schemaProblems(schema)).toEqual([
        { key: '', message: CONFIGURATION_MESSAGES.schemaShape },
      ]);
    }
    expect(schemaProblems({ a: 'int' })).toEqual([
      { key: 'a', message: CONFIGURATION_MESSAGES.fieldShape },
    ]);
  });

  it('an unknown type: Unknown field type', () => {
    expect(schemaProblems({ a: { title: 'A', type: 'colour' } })).toEqual([
      { key: 'a.type', message: 'Unknown field type' },
    ]);
    expect(schemaProblems({ a: { title: 'A' } })).toEqual([
      { key: 'a.type', message: 'Unknown field type' },
    ]);
  });

  it('an unknown property: Unrecognised field', () => {
    expect(schemaProblems({ a: { title: 'A', type: 'int', colour: 'red' } })).toEqual([
      { key: 'a.colour', message: 'Unrecognised field' },
    ]);
  });

  it('a missing or blank title', () => {
    expect(schemaProblems({ a: { type: 'int' }, b: { title: '  ', type: 'int' } })).toEqual([
      { key: 'a.title', message: CONFIGURATION_MESSAGES.title },
      { key: 'b.title', message: CONFIGURATION_MESSAGES.title },
    ]);
  });

  it('enum without choices, list without a known subtype, group without children', () => {
    expect(
      schemaProblems({
        e: { title: 'E', type: 'enum' },
        e2: { title: 'E', type: 'enum', choices: [] },
        l: { title: 'L', type: 'list' },
        l2: { title: 'L', type: 'list', subtype: 'dict' },
        g: { title: 'G', type: 'group' },
      }),
    ).toEqual([
      { key: 'e.choices', message: CONFIGURATION_MESSAGES.choices },
      { key: 'e2.choices', message: CONFIGURATION_MESSAGES.choices },
      { key: 'l.subtype', message: CONFIGURATION_MESSAGES.subtype },
      { key: 'l2.subtype', message: CONFIGURATION_MESSAGES.subtype },
      { key: 'g.children', message: CONFIGURATION_MESSAGES.children },
    ]);
  });

  it('a default of the wrong type gets the field check message', () => {
    expect(
      schemaProblems({
        n: { title: 'N', type: 'int', default: 'x' },
        m: { title: 'M', type: 'enum', choices: ['a'], default: 'b' },
      }),
    ).toEqual([
      { key: 'n.default', message: 'Value must be a valid integer.' },
      { key: 'm.default', message: 'b is not a valid option.' },
    ]);
  });

  it('flags and help text of the wrong type', () => {
    expect(
      schemaProblems({
        a: { title: 'A', type: 'text', required: 'no', multiline: 1, help_text: 3 },
      }),
    ).toEqual([
      { key: 'a.required', message: CONFIGURATION_MESSAGES.flag },
      { key: 'a.multiline', message: CONFIGURATION_MESSAGES.flag },
      { key: 'a.help_text', message: CONFIGURATION_MESSAGES.helpText },
    ]);
  });

  it('checks group children at their dotted path', () => {
    expect(
      schemaProblems({
        g: { title: 'G', type: 'group', children: { x: { title: 'X', type: 'colour' } } },
      }),
    ).toEqual([{ key: 'g.x.type', message: 'Unknown field type' }]);
  });
});

describe('defaults', () => {
  it('defaultConfiguration has each default, group defaults nested', () => {
    expect(defaultConfiguration(SCHEMA)).toEqual({
      batch_size: 8,
      mode: 'fast',
      verbose: false,
      options: { size: 3 },
    });
  });

  it('withDefaults fills only the fields left empty', () => {
    expect(withDefaults(SCHEMA, { batch_size: 2, label: 'x', options: {} })).toEqual({
      batch_size: 2,
      label: 'x',
      mode: 'fast',
      verbose: false,
      options: { size: 3 },
    });
  });

  it('sameAsDefault: the defaults, given or left empty, are the default configuration', () => {
    expect(sameAsDefault(SCHEMA, defaultConfiguration(SCHEMA))).toBe(true);
    expect(sameAsDefault(SCHEMA, { batch_size: 8 })).toBe(true);
    expect(sameAsDefault(SCHEMA, { mode: 'fast', options: { size: 3 }, label: '' })).toBe(true);
  });

  it('sameAsDefault: any value set apart from the defaults makes it another configuration', () => {
    expect(sameAsDefault(SCHEMA, { batch_size: 9 })).toBe(false);
    expect(sameAsDefault(SCHEMA, { options: { size: 4 } })).toBe(false);
    expect(sameAsDefault(SCHEMA, { label: 'x' })).toBe(false);
  });
});

describe('normalizeConfiguration', () => {
  it('casts dict values to text and drops empty values', () => {
    expect(
      normalizeConfiguration(SCHEMA, {
        mapping: { n: 1, yes: true, s: 's' },
        label: '',
        sizes: [],
        options: { size: 2 },
      }),
    ).toEqual({ mapping: { n: '1', yes: 'true', s: 's' }, options: { size: 2 } });
  });
});

describe('modelReferences', () => {
  it('lists model fields holding a UUID, groups included', () => {
    expect(
      modelReferences(SCHEMA, { model: MODEL_ID, options: { backbone: OTHER_MODEL_ID } }),
    ).toEqual([
      { key: 'model', id: MODEL_ID },
      { key: 'options.backbone', id: OTHER_MODEL_ID },
    ]);
  });

  it('skips values that are not UUIDs and worker version fields', () => {
    expect(modelReferences(SCHEMA, { model: 'nope', parent: MODEL_ID })).toEqual([]);
  });
});

describe('a schema with entries that are no field', () => {
  // Stored before its checks, or by another server: the rules skip such entries, never throw.
  const broken = {
    ok: { title: 'Ok', type: 'int', default: 1 },
    nothing: null,
    text: 'int',
    group: { title: 'Group', type: 'group', children: null },
  } as unknown as UserConfiguration;

  it('checks, fills and compares only the real fields', () => {
    expect(validateConfiguration(broken, { ok: 2 })).toEqual([]);
    expect(validateConfiguration(broken, { ok: 'x' })).toEqual([
      { key: 'ok', message: 'Value must be a valid integer.' },
    ]);
    expect(defaultConfiguration(broken)).toEqual({ ok: 1 });
    expect(withDefaults(broken, {})).toEqual({ ok: 1 });
    expect(sameAsDefault(broken, { ok: 1 })).toBe(true);
    expect(normalizeConfiguration(broken, { ok: 2, nothing: 3 })).toEqual({ ok: 2 });
    expect(modelReferences(broken, { ok: 2 })).toEqual([]);
  });

  it('are named by schemaProblems', () => {
    expect(schemaProblems(broken)).toEqual([
      { key: 'nothing', message: CONFIGURATION_MESSAGES.fieldShape },
      { key: 'text', message: CONFIGURATION_MESSAGES.fieldShape },
      { key: 'group.children', message: CONFIGURATION_MESSAGES.children },
    ]);
  });
});
