import { describe, expect, it } from 'vitest';
import { nextVersion } from '../../server/versions';

describe('nextVersion', () => {
  it('is now for a new entity, or one last changed in an earlier second', () => {
    expect(nextVersion(null, '2026-11-24T10:00:00.700Z')).toBe('2026-11-24T10:00:00.700Z');
    expect(nextVersion('2026-11-24T09:59:59.999Z', '2026-11-24T10:00:00.001Z')).toBe(
      '2026-11-24T10:00:00.001Z',
    );
  });

  it('moves a change in the same second as the previous one into the next second', () => {
    expect(nextVersion('2026-11-24T10:00:00.200Z', '2026-11-24T10:00:00.700Z')).toBe(
      '2026-11-24T10:00:01.000Z',
    );
    expect(nextVersion('2026-11-24T10:00:00.000Z', '2026-11-24T10:00:00.000Z')).toBe(
      '2026-11-24T10:00:01.000Z',
    );
  });

  it('keeps moving forward while changes come faster than one a second', () => {
    let version = '2026-11-24T10:00:00.100Z';
    for (const ms of [200, 300, 400]) {
      version = nextVersion(version, `2026-11-24T10:00:00.${ms}Z`);
    }
    expect(version).toBe('2026-11-24T10:00:03.000Z');
    // The clock catches up: the next change once it is past is dated by the clock again.
    expect(nextVersion(version, '2026-11-24T10:00:04.500Z')).toBe('2026-11-24T10:00:04.500Z');
  });
});
