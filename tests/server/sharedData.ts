import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The public test corpus beside the checkout (../shared/data), read in place and never copied
 * into the repository. FOLIA_SHARED_DATA points elsewhere when a clone lives apart from it.
 */
export const SHARED_DATA_DIR: string =
  [
    process.env.FOLIA_SHARED_DATA,
    path.resolve(repoRoot, '..', 'shared', 'data'),
    '/work/shared/data',
  ]
    .filter((candidate): candidate is string => !!candidate)
    .find((candidate) => existsSync(path.join(candidate, 'expected_counts.json'))) ??
  path.resolve(repoRoot, '..', 'shared', 'data');

/** With REQUIRE_SHARED_DATA=1 (as CI sets it), a missing corpus fails instead of skipping. */
export function sharedDataAvailable(): boolean {
  const found = existsSync(path.join(SHARED_DATA_DIR, 'expected_counts.json'));
  if (!found && process.env.REQUIRE_SHARED_DATA === '1') {
    throw new Error(
      `REQUIRE_SHARED_DATA=1 but the shared test corpus is not at ${SHARED_DATA_DIR}`,
    );
  }
  return found;
}
