/**
 * The export worker's own rules: archive file names (one per page, a clash sent to a folder
 * named by the parent, then numbered), its settings (a bad hand-edited configuration fails with
 * the reason) and the wait for the SQLite export (failed, deleted or too long: a clear line).
 */
import { describe, expect, it } from 'vitest';
import type { Api } from '../../../workers/tesseract/api';
import { waitForExport } from '../../../workers/export/download';
import { archiveNames, safeName } from '../../../workers/export/fileNames';
import { readFormat, readSettings } from '../../../workers/export/settings';

const EXPORT_ID = '3f0c2a7e-1b4d-4c8e-9a6f-0d2e5b7c9a11';

describe('archive names', () => {
  it('names each page by its name, sending clashing names to their parent’s folder', () => {
    expect(
      archiveNames(
        [
          { id: 'a', name: 'f. 1', parentName: 'Register A' },
          { id: 'b', name: 'f. 1', parentName: 'Register B' },
          { id: 'c', name: 'f. 2', parentName: 'Register A' },
          { id: 'd', name: 'f. 1', parentName: 'Register A' },
          { id: 'e', name: 'a/b: c?', parentName: null },
          { id: 'f', name: '  ', parentName: null },
        ],
        '.xml',
      ),
    ).toEqual([
      'Register A/f. 1.xml',
      'Register B/f. 1.xml',
      'f. 2.xml',
      'Register A/f. 1 (2).xml',
      'a_b_ c_.xml',
      'f.xml',
    ]);
    expect(safeName('..hidden', 'x')).toBe('_hidden');
  });
});

describe('settings', () => {
  it('reads the format and the options, with their defaults', () => {
    expect(readFormat(['--format', 'alto'])).toBe('alto');
    expect(() => readFormat(['--format', 'tiff'])).toThrow(
      'Give the format to write: --format pdf|pagexml|alto|docx|csv',
    );
    const settings = readSettings({ export_id: EXPORT_ID });
    expect(settings.pageImages).toBe(true);
    expect(settings.fields[0]).toBe('id');
    expect(readSettings({ export_id: EXPORT_ID, fields: ['text', 'id'] }).fields).toEqual([
      'text',
      'id',
    ]);
  });

  it('refuses a configuration without an export, or with unknown columns', () => {
    expect(() => readSettings({})).toThrow('The configuration has no export_id');
    expect(() => readSettings({ export_id: EXPORT_ID, fields: ['id', 'colour'] })).toThrow(
      'Unknown CSV column(s) "colour"',
    );
    expect(() => readSettings({ export_id: EXPORT_ID, page_images: 'yes' })).toThrow(
      'page_images must be true or false',
    );
  });
});

/** An API whose export list answers the states given, one per call. */
function listing(states: (string | null)[]): Api {
  let call = 0;
  return {
    json: async () => {
      const state = states[Math.min(call++, states.length - 1)];
      return {
        next: null,
        results: state === null ? [] : [{ id: EXPORT_ID, state }],
      };
    },
  } as unknown as Api;
}

describe('waiting for the SQLite export', () => {
  const options = (lines: string[], timeoutMs = 1000) => ({
    intervalMs: 5,
    timeoutMs,
    log: (line: string) => void lines.push(line),
  });

  it('says what it waits for once per state, and returns once done', async () => {
    const lines: string[] = [];
    await waitForExport(
      listing(['created', 'running', 'running', 'done']),
      'p',
      EXPORT_ID,
      options(lines),
    );
    expect(lines).toEqual([
      `Waiting for the SQLite export ${EXPORT_ID} (created)…`,
      `Waiting for the SQLite export ${EXPORT_ID} (running)…`,
    ]);
  });

  it('stops on a failed or vanished export, and after the longest wait', async () => {
    await expect(
      waitForExport(listing(['running', 'failed']), 'p', EXPORT_ID, options([])),
    ).rejects.toThrow(`The SQLite export ${EXPORT_ID} failed: start a new one.`);
    await expect(waitForExport(listing([null]), 'p', EXPORT_ID, options([]))).rejects.toThrow(
      'is not in the project',
    );
    await expect(
      waitForExport(listing(['running']), 'p', EXPORT_ID, options([], 20)),
    ).rejects.toThrow(`The SQLite export ${EXPORT_ID} was still running after`);
  });
});
