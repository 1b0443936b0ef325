import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseOptions, USAGE } from '../../agent/options';
import { expandCommand } from '../../agent/run';

describe('agent options', () => {
  it('takes flags first, then the environment, then defaults', () => {
    const fromFlags = parseOptions(
      [
        '--url',
        'http://folia.test:8000/',
        '--farm-token',
        'abc',
        '--slots',
        '3',
        '--hostname',
        'box',
      ],
      { FOLIA_AGENT_URL: 'http://other', FOLIA_AGENT_SLOTS: '9' },
    );
    expect(fromFlags).toMatchObject({
      url: 'http://folia.test:8000',
      farmToken: 'abc',
      slots: 3,
      hostname: 'box',
      heartbeatMs: 5000,
      shutdownGraceMs: 30_000,
    });
    const fromEnv = parseOptions(['--work-dir', 'scratch'], {
      FOLIA_AGENT_URL: 'https://folia.example.org',
      FOLIA_FARM_TOKEN: 'secret',
      FOLIA_AGENT_SLOTS: '2',
      FOLIA_AGENT_HEARTBEAT_S: '0.5',
      FOLIA_AGENT_GRACE_S: '10',
    });
    expect(fromEnv).toMatchObject({
      url: 'https://folia.example.org',
      farmToken: 'secret',
      slots: 2,
      heartbeatMs: 500,
      shutdownGraceMs: 10_000,
      workDir: path.resolve('scratch'),
    });
  });

  it('refuses what it cannot use, saying why', () => {
    expect(() => parseOptions([], {})).toThrow(USAGE);
    expect(() => parseOptions(['--url', 'http://x'], {})).toThrow(USAGE);
    expect(() => parseOptions(['--url', 'ftp://x', '--farm-token', 't'], {})).toThrow(
      '--url: not an http(s) URL: ftp://x',
    );
    expect(() =>
      parseOptions(['--url', 'http://x', '--farm-token', 't', '--slots', '0'], {}),
    ).toThrow('--slots: not a positive integer: 0');
    expect(() =>
      parseOptions(['--url', 'http://x', '--farm-token', 't', '--slots', '1.5'], {}),
    ).toThrow('--slots: not a positive integer: 1.5');
    expect(() =>
      parseOptions(['--url', 'http://x', '--farm-token', 't'], { FOLIA_AGENT_HEARTBEAT_S: 'soon' }),
    ).toThrow('FOLIA_AGENT_HEARTBEAT_S: not a positive number: soon');
    expect(() => parseOptions(['--url', 'http://x', '--farm-token', 't', '--colour'], {})).toThrow(
      /Unknown option '--colour'/,
    );
  });

  it('replaces {folia} with the installation root in every part of the command', () => {
    expect(
      expandCommand(['tsx', '{folia}/workers/noop/main.ts', '--data={folia}/data'], '/opt/folia'),
    ).toEqual(['tsx', '/opt/folia/workers/noop/main.ts', '--data=/opt/folia/data']);
  });
});
