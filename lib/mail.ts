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
 * Messages are plain text. Nothing here retries: a failed send throws, and the caller decides
 * what the user sees (the password-reset request answers the same either way).
 */
import nodemailer, { type Transporter } from "nodemailer";
import { loadEnv } from "./env";

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
