// Reads back the .eml files of the mail outbox (DATA_DIR/mail, used when SMTP_URL is unset).
// Integration and Playwright tests import this file outside the app, so on purpose it imports
// neither "server-only" nor the app's settings: plain Node only. Never bundled for the client.
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

export const MAIL_OUTBOX_DIR = "mail";

export type StoredMail = {
  file: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Every http(s) link of the plain-text part, in order. */
  links: string[];
};

/** The outbox of a data directory: DATA_DIR/mail (DATA_DIR as the app resolves it, default .data). */
export function outboxDir(dataDir = process.env.DATA_DIR || ".data"): string {
  return path.resolve(dataDir, MAIL_OUTBOX_DIR);
}

type Part = { headers: Map<string, string>; body: string };

function splitHeaders(raw: string): Part {
  const cut = raw.indexOf("\n\n");
  const head = cut < 0 ? raw : raw.slice(0, cut);
  const body = cut < 0 ? "" : raw.slice(cut + 2);
  const headers = new Map<string, string>();
  // Folded header lines continue with leading white space.
  for (const line of head.replace(/\n[ \t]+/g, " ").split("\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

/** RFC 2047 encoded words (=?UTF-8?B?…?= and =?UTF-8?Q?…?=), as nodemailer writes non-ASCII subjects. */
function decodeWords(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, "$1$2")
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_m, _charset: string, enc: string, data: string) => {
      if (enc.toUpperCase() === "B") return Buffer.from(data, "base64").toString("utf8");
      const bytes = data.replace(/_/g, " ").replace(/=([0-9A-Fa-f]{2})/g, (_x, h: string) => String.fromCharCode(parseInt(h, 16)));
      return Buffer.from(bytes, "latin1").toString("utf8");
    });
}

function decodeBody(part: Part): string {
  const encoding = (part.headers.get("content-transfer-encoding") ?? "7bit").toLowerCase();
  if (encoding === "base64") return Buffer.from(part.body.replace(/\s+/g, ""), "base64").toString("utf8");
  if (encoding === "quoted-printable") {
    const bytes = part.body.replace(/=\n/g, "").replace(/=([0-9A-Fa-f]{2})/g, (_x, h: string) => String.fromCharCode(parseInt(h, 16)));
    return Buffer.from(bytes, "latin1").toString("utf8");
  }
  return part.body;
}

/** Parses one message as our mailer writes it: text and HTML, possibly as multipart/alternative. */
export function parseMail(raw: string, file = ""): StoredMail {
  const message = splitHeaders(raw.replace(/\r\n/g, "\n"));
  const type = message.headers.get("content-type") ?? "text/plain";
  const parts: Part[] = [];
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (boundary) {
    for (const chunk of message.body.split(`--${boundary}`).slice(1)) {
      if (chunk.startsWith("--")) break;
      parts.push(splitHeaders(chunk.replace(/^\n/, "")));
    }
  } else {
    parts.push(message);
  }
  const partOf = (kind: string) => parts.find((p) => (p.headers.get("content-type") ?? "text/plain").toLowerCase().startsWith(kind));
  const textPart = partOf("text/plain");
  const htmlPart = partOf("text/html");
  const text = textPart ? decodeBody(textPart).trimEnd() : "";
  return {
    file,
    to: decodeWords(message.headers.get("to") ?? ""),
    subject: decodeWords(message.headers.get("subject") ?? ""),
    text,
    html: htmlPart ? decodeBody(htmlPart) : "",
    links: text.match(/https?:\/\/[^\s<>"]+/g) ?? [],
  };
}

/** Every outbox mail to an address (case-insensitive), oldest first. */
export async function mailsTo(address: string, dir = outboxDir()): Promise<StoredMail[]> {
  let names: string[];
  try {
    // DATA_DIR/mail is the operator's, not the project's: without the comment the bundler traces the whole
    // repository into the server's output (issue 40 item 11, docs/adr/0168).
    names = (await readdir(/*turbopackIgnore: true*/ dir)).filter((n) => n.endsWith(".eml")).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
  const wanted = address.trim().toLowerCase();
  const out: StoredMail[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    const mail = parseMail(await readFile(file, "utf8"), file);
    const recipients: string[] = mail.to.toLowerCase().match(/[^\s<>,"]+@[^\s<>,"]+/g) ?? [];
    if (recipients.includes(wanted)) out.push(mail);
  }
  return out;
}

/** The newest outbox mail to an address, or null. */
export async function latestMailTo(address: string, dir = outboxDir()): Promise<StoredMail | null> {
  return (await mailsTo(address, dir)).at(-1) ?? null;
}
