import {
  randomBytes,
  scrypt as scryptCallback,
  timingSafeEqual,
  type ScryptOptions,
} from 'node:crypto';

const KEY_LENGTH = 64;
// N=2^15 keeps a hash near 50 ms here: slow for a guesser, fast enough for a login. The test
// suite lowers it (FOLIA_SCRYPT_N) since it hashes hundreds of passwords; the cost is stored in
// each hash, so hashes made with any cost keep verifying.
const PARAMS = {
  N: Number(process.env.FOLIA_SCRYPT_N) || 32768,
  r: 8,
  p: 1,
  maxmem: 64 * 1024 * 1024,
};

function scrypt(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCallback(password, salt, KEY_LENGTH, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/** Format: scrypt$N$r$p$salt(base64)$key(base64). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, PARAMS);
  return [
    'scrypt',
    PARAMS.N,
    PARAMS.r,
    PARAMS.p,
    salt.toString('base64'),
    key.toString('base64'),
  ].join('$');
}

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  if (!stored) return false;
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: PARAMS.maxmem,
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Spend the same time as a real check, so a login for an unknown e-mail is not faster. */
let dummyHash: Promise<string> | null = null;
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword('folia-dummy-password');
  await verifyPassword(password, await dummyHash);
}

export function randomToken(bytes = 20): string {
  return randomBytes(bytes).toString('hex');
}
