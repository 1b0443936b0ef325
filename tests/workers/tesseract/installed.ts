import { execFileSync } from 'node:child_process';

/**
 * Whether Debian's tesseract runs here. CI installs it (.ci/run), so there its absence fails the
 * run instead of quietly skipping the worker's suites.
 */
export const hasTesseract = (() => {
  try {
    execFileSync('tesseract', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    if (process.env.CI === '1') throw new Error('CI=1 but tesseract is not installed');
    return false;
  }
})();
