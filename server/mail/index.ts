import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

const FROM = 'Folia <no-reply@folia.local>';

/**
 * SMTP when SMTP_URL is set; otherwise each message is written as an .eml file under
 * <data dir>/mail/ and its links are logged, so a person or a test can follow them.
 */
export function createMailer(options: {
  smtpUrl: string | null;
  dataDir: string;
  log: (line: string) => void;
}): Mailer {
  if (options.smtpUrl) {
    const transport: Transporter = nodemailer.createTransport(options.smtpUrl);
    return {
      async send(message) {
        await transport.sendMail({ from: FROM, ...message });
      },
    };
  }
  const folder = path.join(options.dataDir, 'mail');
  const writer = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'unix',
  });
  let counter = 0;
  return {
    async send(message) {
      const info = await writer.sendMail({ from: FROM, ...message });
      await fs.mkdir(folder, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      counter += 1;
      const file = path.join(folder, `${stamp}-${counter}.eml`);
      await fs.writeFile(file, info.message as Buffer);
      const links = message.text.match(/https?:\/\/\S+/g) ?? [];
      options.log(
        `mail to ${message.to}: "${message.subject}" written to ${file}${links.length ? ` (${links.join(' ')})` : ''}`,
      );
    },
  };
}
