import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { FastifyBaseLogger } from "fastify";
import nodemailer from "nodemailer";

/** One outgoing message; `link` is the action link, logged when mail goes to the outbox. */
export type MailMessage = { to: string; subject: string; text: string; html?: string; link?: string };

/** Sends mail over SMTP, or writes .eml files (and a readable .txt of each) to $DATA_DIR/mail when no SMTP_URL is set. */
export type Mailer = { send(msg: MailMessage): Promise<void>; mode: "smtp" | "outbox" };

/** Build the mailer for this configuration. */
export function createMailer(opts: {
  smtpUrl: string | undefined;
  from: string;
  dataDir: string;
  log: FastifyBaseLogger;
}): Mailer {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl);
    return {
      mode: "smtp",
      async send(msg) {
        await transport.sendMail({ from: opts.from, to: msg.to, subject: msg.subject, text: msg.text, html: msg.html });
        opts.log.info({ to: msg.to, subject: msg.subject }, "mail sent");
      },
    };
  }
  const outbox = path.join(opts.dataDir, "mail");
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  let written = 0;
  return {
    mode: "outbox",
    async send(msg) {
      const info = await transport.sendMail({
        from: opts.from,
        to: msg.to,
        subject: msg.subject,
        text: msg.text,
        html: msg.html,
      });
      await mkdir(outbox, { recursive: true });
      // Two mails to one recipient in the same millisecond must not share a file: a sequence number keeps both,
      // in order, and "wx" refuses to overwrite whatever else might hold the name.
      const stamp = new Date().toISOString().replace(/[:.]/g, "-");
      const seq = String(++written % 1_000_000).padStart(6, "0");
      const safeTo = msg.to.replace(/[^a-zA-Z0-9@._+-]/g, "_");
      const base = path.join(outbox, `${stamp}-${seq}-${safeTo}`);
      const file = `${base}.eml`;
      await writeFile(file, info.message as Buffer, { flag: "wx" });
      // The .eml body is quoted-printable: long lines are cut with "=" and "=" itself becomes "=3D", so a link
      // copied out of it fails. The .txt beside it is the plain text as written, for a person to read and copy.
      const textFile = `${base}.txt`;
      await writeFile(textFile, outboxText(msg), { flag: "wx" });
      opts.log.info(
        { to: msg.to, subject: msg.subject, file, textFile, link: msg.link },
        `mail written to outbox${msg.link ? `: ${msg.link}` : ""}`,
      );
    },
  };
}

/** A message as plain text: To and Subject, a blank line, then the text body unchanged (links whole). */
export function outboxText(msg: MailMessage): string {
  const body = msg.text.endsWith("\n") ? msg.text : `${msg.text}\n`;
  return `To: ${msg.to}\nSubject: ${msg.subject}\n\n${body}`;
}
