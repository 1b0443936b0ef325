import { describe, expect, it } from 'vitest';
import {
  configurationKey,
  emptyRequiredFields,
  fromFormState,
  parseJsonConfiguration,
  setFieldState,
  toFormState,
} from '@/features/workers/configuration/formState';
import type { UserConfiguration } from '@/lib/workerConfiguration';

const SCHEMA: UserConfiguration = {
  count: { title: 'Count', type: 'int', default: 2 },
  ratio: { title: 'Ratio', type: 'float', required: false },
  mode: { title: 'Mode', type: 'enum', choices: [1, 'two', { three: 3 }], required: false },
  flag: { title: 'Flag', type: 'bool', required: false },
  strict: { title: 'Strict', type: 'bool' },
  tags: { title: 'Tags', type: 'list', subtype: 'bool', required: false },
  env: { title: 'Env', type: 'dict', required: false },
  name: { title: 'Name', type: 'string' },
  group: {
    title: 'Group',
    type: 'group',
    children: { depth: { title: 'Depth', type: 'int' } },
  },
};

describe('the form state', () => {
  it('shows values as the inputs hold them and reads them back with their types', () => {
    const values = {
      count: 5,
      ratio: 0.5,
      mode: { three: 3 },
      flag: true,
      strict: false,
      tags: [true, false],
      env: { A: '1' },
      name: 'n',
      group: { depth: 2 },
    };
    const state = toFormState(SCHEMA, values);
    expect(state).toEqual({
      count: '5',
      ratio: '0.5',
      mode: '2',
      flag: true,
      strict: false,
      tags: 'true\nfalse',
      env: [{ key: 'A', value: '1' }],
      name: 'n',
      group: { depth: '2' },
    });
    expect(fromFormState(SCHEMA, state)).toEqual(values);
  });

  it('keeps what does not parse as typed, for the checks to refuse', () => {
    const state = toFormState(SCHEMA, {});
    const typed = setFieldState(
      setFieldState(setFieldState(state, ['count'], '1.5'), ['tags'], 'yes'),
      ['group', 'depth'],
      'deep',
    );
    expect(fromFormState(SCHEMA, typed)).toMatchObject({
      count: '1.5',
      tags: ['yes'],
      group: { depth: 'deep' },
    });
  });

  it('leaves out what says nothing: empty inputs, blank dict keys, an unticked optional box', () => {
    const state = setFieldState(toFormState(SCHEMA, {}), ['env'], [{ key: ' ', value: 'x' }]);
    // A required box gives false; an optional one without a default says nothing unticked.
    expect(fromFormState(SCHEMA, state)).toEqual({ strict: false });
  });

  it('lists the required fields left empty, at their dotted path', () => {
    expect(emptyRequiredFields(SCHEMA, toFormState(SCHEMA, {}))).toEqual([
      'count',
      'name',
      'group.depth',
    ]);
    expect(
      emptyRequiredFields(
        SCHEMA,
        toFormState(SCHEMA, { count: 1, name: 'x', group: { depth: 1 } }),
      ),
    ).toEqual([]);
  });

  it('reads raw JSON only as an object', () => {
    expect(parseJsonConfiguration('{"a": 1}')).toEqual({ a: 1 });
    expect(parseJsonConfiguration('[1]')).toBeNull();
    expect(parseJsonConfiguration('null')).toBeNull();
    expect(parseJsonConfiguration('{')).toBeNull();
  });

  it("maps the API's attrs to the form's keys", () => {
    expect(configurationKey('configuration.group.depth')).toBe('group.depth');
    expect(configurationKey('configuration')).toBe('');
    expect(configurationKey('name')).toBeNull();
  });
});
