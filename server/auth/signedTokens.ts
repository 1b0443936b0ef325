import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Django-style one-time tokens: "<timestamp base36>-<hmac>". The HMAC covers a state string
 * that changes once the token is used (password hash, verified flag), so a token works once,
 * and the timestamp makes it expire.
 */
export function makeToken(secret: string, purpose: string, state: string, at = Date.now()): string {
  const stamp = Math.floor(at / 1000).toString(36);
  return `${stamp}-${sign(secret, purpose, state, stamp)}`;
}

export function checkToken(
  secret: string,
  purpose: string,
  state: string,
  token: string,
  maxAgeMs: number,
): boolean {
  const match = /^([0-9a-z]{1,13})-([0-9a-f]{40})$/.exec(token);
  if (!match) return false;
  const [, stamp, mac] = match as unknown as [string, string, string];
  const expected = Buffer.from(sign(secret, purpose, state, stamp), 'hex');
  const given = Buffer.from(mac, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
  const issuedMs = parseInt(stamp, 36) * 1000;
  return Date.now() - issuedMs <= maxAgeMs && issuedMs <= Date.now() + 60_000;
}

function sign(secret: string, purpose: string, state: string, stamp: string): string {
  return createHmac('sha1', secret).update(`${purpose}\0${state}\0${stamp}`).digest('hex');
}

export function encodeUid(id: string): string {
  return Buffer.from(id, 'utf8').toString('base64url');
}

export function decodeUid(uidb64: string): string | null {
  if (!/^[A-Za-z0-9_-]{1,128}$/.test(uidb64)) return null;
  return Buffer.from(uidb64, 'base64url').toString('utf8');
}
