import { describe, expect, it } from 'vitest';
import {
  FILTER_NAMES,
  describeFilterValue,
  parseBoolean,
  validateFilter,
  type FilterContext,
  type FilterName,
} from '@/lib/filters';
import type { ElementType } from '@/api/types';

const TYPES: ElementType[] = [
  { id: 't1', slug: 'folder', display_name: 'Folder', folder: true, color: '28b62c' },
  { id: 't2', slug: 'page', display_name: 'Page', folder: false, color: 'c64f3d' },
  { id: 't3', slug: 'text_line', display_name: 'Text line', folder: false, color: 'aaaaaa' },
];
const CLASS_ID = '0c2f3b1a-5d4e-4f6a-8b7c-9d0e1f2a3b4c';
const UUID = '3f2a7c1e-9b4d-4e8a-a1f0-2c6d8e9b0a17';
const context: FilterContext = { types: TYPES, classes: [{ id: CLASS_ID, name: 'Signature' }] };

function check(name: FilterName, value: string, extra: Partial<FilterContext> = {}) {
  return validateFilter(name, value, { ...context, ...extra });
}

describe('filter names', () => {
  it('are the nineteen of the filter bar, each once', () => {
    expect(FILTER_NAMES).toHaveLength(19);
    expect(new Set(FILTER_NAMES).size).toBe(19);
  });
});

describe('confidence filters', () => {
  const message = 'A confidence must be a number between 0.0 and 1.0';
  it.each(['confidence', 'transcription_confidence', 'classification_confidence'] as const)(
    '%s takes a number from 0.0 to 1.0',
    (name) => {
      expect(check(name, '0')).toEqual({ ok: true, value: '0' });
      expect(check(name, '0.0')).toEqual({ ok: true, value: '0' });
      expect(check(name, ' .75 ')).toEqual({ ok: true, value: '0.75' });
      expect(check(name, '1.0')).toEqual({ ok: true, value: '1' });
      for (const bad of ['1.01', '-0.1', 'high', '', '1e-1', '0,5', 'NaN', 'Infinity']) {
        expect(check(name, bad)).toEqual({ ok: false, message });
      }
    },
  );
});

describe('rotation_angle', () => {
  const message = 'A rotation angle must be a number between 0 and 359 degrees';
  it('takes an integer from 0 to 359', () => {
    expect(check('rotation_angle', '0')).toEqual({ ok: true, value: '0' });
    expect(check('rotation_angle', '090')).toEqual({ ok: true, value: '90' });
    expect(check('rotation_angle', '359')).toEqual({ ok: true, value: '359' });
    for (const bad of ['360', '-90', '90.5', 'ninety', '']) {
      expect(check('rotation_angle', bad)).toEqual({ ok: false, message });
    }
  });
});

describe('type', () => {
  it('matches a project type by slug or display name and sends the slug', () => {
    expect(check('type', 'page')).toEqual({ ok: true, value: 'page' });
    expect(check('type', 'Text line')).toEqual({ ok: true, value: 'text_line' });
    expect(check('type', 'PAGE')).toEqual({ ok: true, value: 'page' });
  });

  it('refuses a type the project does not have, naming it', () => {
    expect(check('type', 'volume')).toEqual({ ok: false, message: "Type 'volume' not found." });
  });
});

describe('class_id', () => {
  it('matches a class by name or id and sends its id', () => {
    expect(check('class_id', 'signature')).toEqual({ ok: true, value: CLASS_ID });
    expect(check('class_id', CLASS_ID.toUpperCase())).toEqual({ ok: true, value: CLASS_ID });
  });

  it('refuses an unknown class', () => {
    expect(check('class_id', 'Seal')).toEqual({ ok: false, message: "Unknown class 'Seal'" });
    expect(check('class_id', UUID)).toEqual({ ok: false, message: `Unknown class '${UUID}'` });
  });

  it('accepts only ids when the project classes cannot be listed', () => {
    expect(check('class_id', UUID, { classes: null })).toEqual({ ok: true, value: UUID });
    expect(check('class_id', 'Seal', { classes: null })).toEqual({
      ok: false,
      message: "Unknown class 'Seal'",
    });
  });
});

describe('boolean filters', () => {
  it.each([
    'mirrored',
    'folder',
    'recursive',
    'top_level',
    'classification_high_confidence',
  ] as const)('%s takes true, false, yes or no', (name) => {
    expect(check(name, 'Yes')).toEqual({ ok: true, value: 'true' });
    expect(check(name, 'true')).toEqual({ ok: true, value: 'true' });
    expect(check(name, 'NO')).toEqual({ ok: true, value: 'false' });
    expect(check(name, 'false')).toEqual({ ok: true, value: 'false' });
    for (const bad of ['1', 'y', 'maybe', '']) {
      expect(check(name, bad)).toEqual({ ok: false, message: 'Only Yes and No are allowed' });
    }
  });

  it('parseBoolean reads the four words only', () => {
    expect([' yes', 'No ', 'TRUE', 'false', 'on'].map(parseBoolean)).toEqual([
      true,
      false,
      true,
      false,
      null,
    ]);
  });
});

describe('worker run filters', () => {
  it.each(['worker_run', 'transcription_worker_run'] as const)(
    '%s takes a UUID or false',
    (name) => {
      expect(check(name, UUID)).toEqual({ ok: true, value: UUID });
      expect(check(name, UUID.toUpperCase())).toEqual({ ok: true, value: UUID });
      expect(check(name, 'False')).toEqual({ ok: true, value: 'false' });
      for (const bad of ['no', UUID.slice(0, 35), `${UUID}0`, '']) {
        expect(check(name, bad)).toEqual({ ok: false, message: 'Invalid UUID' });
      }
    },
  );
});

describe('worker version filters', () => {
  it.each(['worker_version', 'transcription_worker_version'] as const)(
    '%s takes a known version ID or false',
    (name) => {
      expect(check(name, UUID)).toEqual({ ok: true, value: UUID });
      expect(check(name, 'false')).toEqual({ ok: true, value: 'false' });
      expect(check(name, 'abc')).toEqual({
        ok: false,
        message: "Unknown worker version ID: 'abc'",
      });
      expect(check(name, UUID, { workerVersions: [CLASS_ID] })).toEqual({
        ok: false,
        message: `Unknown worker version ID: '${UUID}'`,
      });
      expect(check(name, UUID, { workerVersions: [UUID] })).toEqual({ ok: true, value: UUID });
    },
  );
});

describe('metadata_value', () => {
  const message = 'Numeric comparison operators on metadata values require finite numbers';

  it.each(['lt', 'lte', 'gt', 'gte'] as const)('needs a finite number with %s', (operator) => {
    expect(check('metadata_value', '12.5', { metadataOperator: operator })).toEqual({
      ok: true,
      value: '12.5',
    });
    expect(check('metadata_value', '-3', { metadataOperator: operator })).toEqual({
      ok: true,
      value: '-3',
    });
    for (const bad of ['twelve', 'Infinity', '1e999', '']) {
      expect(check('metadata_value', bad, { metadataOperator: operator })).toEqual({
        ok: false,
        message,
      });
    }
  });

  it.each(['eq', 'contains'] as const)('takes any text with %s', (operator) => {
    expect(check('metadata_value', 'Paris', { metadataOperator: operator })).toEqual({
      ok: true,
      value: 'Paris',
    });
  });
});

describe('text filters', () => {
  it.each(['name', 'metadata_name', 'creator_email'] as const)('%s takes trimmed text', (name) => {
    expect(check(name, '  Folio 12 ')).toEqual({ ok: true, value: 'Folio 12' });
    expect(check(name, '   ')).toEqual({ ok: false, message: 'This field may not be blank.' });
  });
});

describe('chip values', () => {
  it('reads booleans as Yes/No, types and classes by name, false runs as manual', () => {
    const read = (name: FilterName, value: string) => describeFilterValue(name, value, context);
    expect(read('top_level', 'true')).toBe('Yes');
    expect(read('folder', 'false')).toBe('No');
    expect(read('type', 'text_line')).toBe('Text line');
    expect(read('class_id', CLASS_ID)).toBe('Signature');
    expect(read('class_id', UUID)).toBe(UUID);
    expect(read('worker_run', 'false')).toBe('Manual');
    expect(read('name', 'Folio')).toBe('Folio');
  });
});
