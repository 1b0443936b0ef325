/** Debian's `tesseract` command, run on an image (or a list of images) for its TSV output. */
import { execFile } from 'node:child_process';

export const NOT_INSTALLED =
  'tesseract is not installed on this machine: apt-get install tesseract-ocr tesseract-ocr-frk tesseract-ocr-deu tesseract-ocr-fra';

export interface TesseractOptions {
  languages: string;
  psm: number;
  /** The folder holding `<lang>.traineddata` files; Tesseract's own when undefined. */
  tessdata?: string | undefined;
}

function run(args: string[], tessdata?: string): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      'tesseract',
      args,
      {
        maxBuffer: 256 * 1024 * 1024,
        // One thread per call: an agent runs several tasks at once, each its own process.
        env: {
          ...process.env,
          OMP_THREAD_LIMIT: '1',
          ...(tessdata ? { TESSDATA_PREFIX: tessdata } : {}),
        },
      },
      (error, stdout, stderr) => {
        if (error) {
          const detail = stderr.trim() || error.message;
          reject(Object.assign(new Error(`tesseract failed: ${detail}`), { code: error.code }));
        } else resolve({ stdout, stderr });
      },
    );
  });
}

/** False when the command cannot be found. */
export async function tesseractInstalled(): Promise<boolean> {
  try {
    await run(['--version']);
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code !== 'ENOENT';
  }
}

/** The TSV Tesseract prints for `input`: an image file, or a text file listing image files. */
export async function recognize(input: string, options: TesseractOptions): Promise<string> {
  const { stdout } = await run(
    // The `tsv` config file lives in Debian's tessdata: a model's own folder has none.
    [
      input,
      '-',
      '-l',
      options.languages,
      '--psm',
      String(options.psm),
      '-c',
      'tessedit_create_tsv=1',
    ],
    options.tessdata,
  );
  return stdout;
}
