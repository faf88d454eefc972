/**
 * The test outbox for end-to-end tests: the server under test has no SMTP, so `lib/accounts/mail.ts`
 * logs each mail and, with `MAIL_OUTBOX_FILE` set (playwright.config.ts sets it to
 * {@link e2eOutboxFile}), appends it to that file as a JSON line `{at, to, subject, text, links}`.
 * Specs read the links people would get by mail from there.
 */
import { readFile } from "node:fs/promises";
import { expect } from "@playwright/test";
import { e2eOutboxFile } from "./server";

/** One mail as the outbox records it. */
export interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  links: string[];
}

/** Every mail in the outbox so far, oldest first (none when the file does not exist yet). */
export async function outboxMails(): Promise<OutboxMail[]> {
  let text = "";
  try {
    text = await readFile(e2eOutboxFile(), "utf8");
  } catch {
    return [];
  }
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as OutboxMail);
}

/**
 * The newest link matching `pattern` in the mails to `to` (waits for such a mail to arrive).
 *
 * @param to the recipient, as the server stores it (lower-case)
 * @param pattern what the link looks like, e.g. /\/confirm-account\?token=/
 * @throws (a failed expectation) when no such mail arrives within the poll's timeout
 */
export async function mailedLink(to: string, pattern: RegExp): Promise<string> {
  let link = "";
  await expect
    .poll(
      async () => {
        link = (await outboxMails()).filter((m) => m.to === to).flatMap((m) => m.links).filter((l) => pattern.test(l)).at(-1) ?? "";
        return link;
      },
      { message: `a mail to ${to} with a link like ${pattern}` },
    )
    .not.toBe("");
  return link;
}

/** The sign-up confirmation link mailed to `to`: the newest one (waits for it). */
export function confirmationLink(to: string): Promise<string> {
  return mailedLink(to, /\/confirm-account\?token=[A-Za-z0-9_-]{43}$/);
}
