import "server-only";
import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import nodemailer, { type Transporter } from "nodemailer";
import { env } from "@/lib/server/env";
import { log } from "@/lib/server/log";
import { MAIL_OUTBOX_DIR } from "./mailbox";
import { processMetrics } from "@/lib/server/metrics/registry";

export type Mail = { to: string; subject: string; text: string; html: string; links?: string[] };

type Sender = { kind: "smtp" | "outbox"; transport: Transporter };
let cached: { key: string; sender: Sender } | undefined;

/** SMTP when SMTP_URL is set; otherwise nodemailer renders the message and we keep it as an .eml file. */
function sender(): Sender {
  const { SMTP_URL } = env();
  const key = SMTP_URL ?? "outbox";
  if (cached?.key === key) return cached.sender;
  const sender: Sender = SMTP_URL
    ? { kind: "smtp", transport: nodemailer.createTransport(SMTP_URL) }
    : { kind: "outbox", transport: nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" }) };
  cached = { key, sender };
  return sender;
}

let sequence = 0;
/** Sortable by name: time first, then a per-process counter for mails of the same millisecond. */
function outboxFileName(): string {
  sequence = (sequence + 1) % 1_000_000;
  const stamp = new Date().toISOString().replace(/[-:.TZ]/g, "");
  return `${stamp}-${String(sequence).padStart(6, "0")}-${randomBytes(3).toString("hex")}.eml`;
}

/** Sends one mail now; resolves when the SMTP server accepted it or the .eml file is written. */
export async function sendMail(mail: Mail): Promise<void> {
  const deliveries = processMetrics().mail;
  try {
    await sendMailNow(mail);
  } catch (err) {
    deliveries.inc({ result: "failed" });
    throw err;
  }
  deliveries.inc({ result: "sent" });
}

async function sendMailNow(mail: Mail): Promise<void> {
  const { kind, transport } = sender();
  const info = await transport.sendMail({
    from: env().MAIL_FROM,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    // Plain base64 bodies keep the outbox files easy to read back (mailbox.ts).
    textEncoding: "base64",
  });
  if (kind === "smtp") {
    log.info({ messageId: info.messageId }, "mail sent");
    return;
  }
  const dir = path.join(env().DATA_DIR, MAIL_OUTBOX_DIR);
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, outboxFileName());
  await writeFile(file, info.message as Buffer, { mode: 0o600 });
  // Without SMTP the operator (or a developer) follows the link from the log.
  log.info({ to: mail.to, subject: mail.subject, file, links: mail.links }, "mail written to the outbox");
}
