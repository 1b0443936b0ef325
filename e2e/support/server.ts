import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { E2E_DATA_DIR } from '../../playwright.config';

/** A fresh e-mail address per test, so tests never depend on each other. */
export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${randomUUID().slice(0, 8)}@example.com`;
}

/** Creates an account through the admin CLI, against the e2e server's database. */
export function createUser(
  email: string,
  password: string,
  options: { admin?: boolean; displayName?: string } = {},
): void {
  const args = [
    'server/cli.ts',
    options.admin ? 'createsuperuser' : 'createuser',
    '--email',
    email,
    '--password',
    password,
  ];
  if (options.displayName) args.push('--display-name', options.displayName);
  execFileSync(path.join('node_modules', '.bin', 'tsx'), args, {
    env: { ...process.env, FOLIA_DATA_DIR: E2E_DATA_DIR, DATABASE_URL: '' },
    stdio: 'pipe',
  });
}

function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The newest mail sent to an address, read from the server's mail outbox folder. */
export async function lastMailTo(email: string, timeoutMs = 10_000): Promise<string> {
  const folder = path.join(E2E_DATA_DIR, 'mail');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const files = fs.existsSync(folder) ? fs.readdirSync(folder).sort().reverse() : [];
    for (const file of files) {
      const raw = fs.readFileSync(path.join(folder, file), 'utf8');
      if (raw.toLowerCase().includes(`to: ${email.toLowerCase()}`))
        return decodeQuotedPrintable(raw);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`No mail to ${email} in ${folder}`);
}

/** The first link in a mail that points at the given path, rebased on the app's origin. */
export function linkIn(mail: string, pathPrefix: string, baseURL: string): string {
  const match = mail.match(
    new RegExp(`https?://[^\\s"<>]+${pathPrefix.replace(/[/?]/g, '\\$&')}[^\\s"<>]*`),
  );
  if (!match) throw new Error(`No link to ${pathPrefix} in mail:\n${mail}`);
  const url = new URL(match[0]);
  return new URL(url.pathname + url.search, baseURL).toString();
}

/** Imports files through the admin CLI into the e2e server's database; returns the project id. */
export function importWithCli(source: string, corpus: string, ownerEmail: string): string {
  const output = execFileSync(
    path.join('node_modules', '.bin', 'tsx'),
    ['server/cli.ts', 'import', source, '--corpus', corpus, '--owner', ownerEmail],
    { env: { ...process.env, FOLIA_DATA_DIR: E2E_DATA_DIR, DATABASE_URL: '' }, stdio: 'pipe' },
  ).toString();
  const id = output.match(/^Project id: ([0-9a-f-]{36})$/m)?.[1];
  if (!id) throw new Error(`The import printed no project id:\n${output}`);
  return id;
}
