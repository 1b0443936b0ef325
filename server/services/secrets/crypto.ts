/**
 * Secret values at rest: AES-256-GCM under FOLIA_SECRET_KEY, a fresh 12-byte nonce for each
 * write. The secret's name is bound as additional data, so a ciphertext copied onto another
 * secret's row fails to decrypt instead of handing out the wrong value.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export interface Sealed {
  content: string;
  iv: string;
  tag: string;
}

export function seal(key: Buffer, name: string, value: string): Sealed {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(name, 'utf8'));
  const content = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  return {
    content: content.toString('base64'),
    iv: iv.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
  };
}

/** The value, or an error when the key (or the row) is not the one it was sealed with. */
export function open(key: Buffer, name: string, sealed: Sealed): string {
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
  decipher.setAAD(Buffer.from(name, 'utf8'));
  decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
  return Buffer.concat([
    decipher.update(Buffer.from(sealed.content, 'base64')),
    decipher.final(),
  ]).toString('utf8');
}
