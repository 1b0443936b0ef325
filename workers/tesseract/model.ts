/**
 * A worker run's model version as Tesseract data: its archive (`GET /modelversion/{id}/download/`)
 * holds a `<lang>.traineddata` (in a tar, plain, gzip or zstd, or the file itself), installed as
 * `$PONOS_DATA/tessdata/<lang>.traineddata`. The language is the file's name in the archive,
 * or the model's name as a slug when the archive is the bare file.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Api } from './api';

export interface InstalledModel {
  tessdata: string;
  language: string;
}

const ZSTD = Buffer.from([0x28, 0xb5, 0x2f, 0xfd]);
const GZIP = Buffer.from([0x1f, 0x8b]);

export function languageSlug(name: string): string {
  return (
    name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '') || 'model'
  );
}

function isTar(bytes: Buffer): boolean {
  return bytes.length > 262 && bytes.subarray(257, 262).toString('latin1') === 'ustar';
}

function untar(archive: string, into: string, flag: string | null): Promise<void> {
  return new Promise((resolve, reject) => {
    const args = ['-x', '-f', archive, '-C', into, ...(flag ? [flag] : [])];
    execFile('tar', args, (error, _stdout, stderr) =>
      error ? reject(new Error(`the model archive cannot be read: ${stderr.trim()}`)) : resolve(),
    );
  });
}

async function findTraineddata(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await fs.readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.traineddata')) {
      found.push(path.join(entry.parentPath ?? dir, entry.name));
    }
  }
  return found.sort();
}

export async function installModel(
  api: Api,
  modelVersion: { id: string; model: { name: string } },
  dataDir: string,
): Promise<InstalledModel> {
  const work = path.join(dataDir, 'model');
  const tessdata = path.join(dataDir, 'tessdata');
  await fs.mkdir(work, { recursive: true });
  await fs.mkdir(tessdata, { recursive: true });
  const bytes = await api.bytes(`modelversion/${modelVersion.id}/download/`);
  const archive = path.join(work, 'archive');
  await fs.writeFile(archive, bytes);

  let source: string;
  let language: string;
  const compressed = bytes.subarray(0, 4).equals(ZSTD)
    ? '--zstd'
    : bytes.subarray(0, 2).equals(GZIP)
      ? '--gzip'
      : null;
  if (compressed || isTar(bytes)) {
    const extracted = path.join(work, 'extracted');
    await fs.mkdir(extracted, { recursive: true });
    await untar(archive, extracted, compressed);
    const files = await findTraineddata(extracted);
    if (files.length === 0) {
      throw new Error('the model archive holds no .traineddata file for Tesseract');
    }
    source = files[0]!;
    language = path.basename(source, '.traineddata');
  } else {
    source = archive;
    language = languageSlug(modelVersion.model.name);
  }
  await fs.copyFile(source, path.join(tessdata, `${language}.traineddata`));
  return { tessdata, language };
}
