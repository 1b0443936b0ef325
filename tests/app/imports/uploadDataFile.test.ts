// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { uploadDataFile } from '@/api/dataFiles';
import { NetworkError } from '@/api/errors';
import { FakeXhr } from './harness';

beforeEach(() => {
  FakeXhr.sent = [];
  FakeXhr.onSend = null;
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
});
afterEach(() => vi.unstubAllGlobals());

const blob = () => new Blob(['12345'], { type: 'image/png' });

describe('uploadDataFile', () => {
  it('keeps an upload URL on another host absolute, and sends the blob type', async () => {
    const upload = uploadDataFile(
      'https://files.example.org/api/v1/process/file/x/upload/',
      blob(),
    );
    const [xhr] = FakeXhr.sent as [FakeXhr];
    expect(xhr.url).toBe('https://files.example.org/api/v1/process/file/x/upload/');
    expect(xhr.headers['content-type']).toBe('image/png');
    await xhr.respond(200, { id: 'x', status: 'checked' });
    await expect(upload).resolves.toMatchObject({ id: 'x', status: 'checked' });
  });

  it("turns the server's structured error into its message", async () => {
    const upload = expect(
      uploadDataFile('/api/v1/process/file/x/upload/', blob()),
    ).rejects.toMatchObject({
      status: 403,
      message: 'Only the user who created this file may upload its content.',
    });
    await FakeXhr.sent[0]!.respond(403, {
      type: 'client_error',
      errors: [
        {
          code: 'permission_denied',
          detail: 'Only the user who created this file may upload its content.',
          attr: null,
        },
      ],
    });
    await upload;
  });

  it('reports a network failure and a cancellation as such', async () => {
    const failed = expect(uploadDataFile('/u/', blob())).rejects.toBeInstanceOf(NetworkError);
    await FakeXhr.sent[0]!.failNetwork();
    await failed;

    const controller = new AbortController();
    const cancelled = expect(
      uploadDataFile('/u/', blob(), { signal: controller.signal }),
    ).rejects.toMatchObject({ name: 'AbortError' });
    controller.abort();
    expect(FakeXhr.sent[1]!.aborted).toBe(true);
    await cancelled;
  });
});
