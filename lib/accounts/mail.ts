/**
 * Outgoing mail (the password-reset link). Server-only.
 *
 * - With `SMTP_URL` set (`lib/env.ts`, e.g. `smtps://user:password@mail.example.org:465`), mail
 *   goes out through nodemailer's SMTP transport, one transport (connection settings) per
 *   process and URL, sent from `MAIL_FROM` (default `Corefboard <no-reply@HOST>`).
 * - Without it, nothing is sent: the mail is written to the server log as one line holding the
 *   recipient, the subject and the link(s), so that an operator of a site without mail can
 *   hand the link over (`npm run admin -- reset-link --email E` prints a fresh one too). The
 *   body text is not logged: the links are what a person needs.
 *
 * - Test outbox: with `MAIL_OUTBOX_FILE` set as well (a path; for end-to-end tests and local
 *   development only), each mail that is not sent is also appended to that file as one JSON
 *   line `{at, to, subject, text, links}` ({@link OutboxEntry}), so that a test can read the
 *   link a mail carries ({@link readOutbox}). The file holds live links: never set it on a
 *   site people use. With `SMTP_URL` set the outbox is not written.
 *
 * Messages are plain text. Nothing here retries: a failed send throws, and the caller decides
 * what the user sees (the password-reset request answers the same either way).
 */
import { appendFile, readFile } from "node:fs/promises";
import nodemailer, { type Transporter } from "nodemailer";
import { loadEnv } from "../env";

/** One mail to one person. */
export interface MailMessage {
  /** the recipient's address */
  to: string;
  /** one line */
  subject: string;
  /** the plain-text body */
  text: string;
  /** the links the body holds, written to the log when there is no SMTP server */
  links?: readonly string[];
}

/** How a message was handled: sent through SMTP, or written to the server log. */
export type MailDelivery = { via: "smtp"; messageId: string } | { via: "log" };

const globalForMail = globalThis as unknown as { corefboardMailTransport?: { url: string; transport: Transporter } };

/** The SMTP transport for `url`, made once per process (and again when the URL changes). */
function transportFor(url: string): Transporter {
  const cached = globalForMail.corefboardMailTransport;
  if (cached?.url === url) return cached.transport;
  cached?.transport.close();
  const transport = nodemailer.createTransport(url);
  globalForMail.corefboardMailTransport = { url, transport };
  return transport;
}

/** Quotes a value for the one-line log entry (no line breaks can get in). */
function quoted(value: string): string {
  return JSON.stringify(value);
}

/**
 * Sends one mail, or logs it when no SMTP server is configured (see the module header).
 *
 * @param message recipient, subject, plain-text body and the links it holds
 * @param env where to read `SMTP_URL` and `MAIL_FROM` (default `process.env`, through `loadEnv`)
 * @returns `{via: "smtp", messageId}` once the SMTP server accepted the mail, or `{via: "log"}`
 * @throws EnvError when the mail settings are malformed; whatever nodemailer throws when the
 *   SMTP server cannot be reached or refuses the mail (the message is then not sent)
 */
export async function sendMail(message: MailMessage, env: Record<string, string | undefined> = process.env): Promise<MailDelivery> {
  const { SMTP_URL, MAIL_FROM } = loadEnv(env);
  if (!SMTP_URL) {
    const links = (message.links ?? []).map(quoted).join(" ");
    console.log(`mail (not sent: SMTP_URL is unset): to ${quoted(message.to)}, subject ${quoted(message.subject)}${links ? `, link ${links}` : ""}`);
    const outbox = env.MAIL_OUTBOX_FILE?.trim();
    if (outbox) {
      const entry: OutboxEntry = { at: new Date().toISOString(), to: message.to, subject: message.subject, text: message.text, links: [...(message.links ?? [])] };
      await appendFile(outbox, `${JSON.stringify(entry)}\n`, "utf8");
    }
    return { via: "log" };
  }
  const info = (await transportFor(SMTP_URL).sendMail({
    from: MAIL_FROM,
    to: message.to,
    subject: message.subject,
    text: message.text,
  })) as { messageId?: string };
  return { via: "smtp", messageId: info.messageId ?? "" };
}

/** One mail as the test outbox (`MAIL_OUTBOX_FILE`) records it. */
export interface OutboxEntry {
  /** when it was written (ISO 8601) */
  at: string;
  to: string;
  subject: string;
  text: string;
  links: string[];
}

/**
 * The mails in a test outbox file (see the module header), oldest first.
 *
 * @param file the `MAIL_OUTBOX_FILE` path
 * @returns the entries; none when the file does not exist yet
 * @throws SyntaxError when a line is not JSON (the file was written by something else)
 */
export async function readOutbox(file: string): Promise<OutboxEntry[]> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as OutboxEntry);
}
