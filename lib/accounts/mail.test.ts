import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

const sent: Record<string, unknown>[] = [];
const transport = {
  sendMail: vi.fn(async (mail: Record<string, unknown>) => {
    sent.push(mail);
    return { messageId: `<${sent.length}@mail.example.org>` };
  }),
  close: vi.fn(),
};
const createTransport = vi.fn((_url: string) => transport);

vi.mock("nodemailer", () => ({ default: { createTransport }, createTransport }));

const { sendMail } = await import("./mail");

const message = {
  to: "ada@example.org",
  subject: "Reset your Corefboard password",
  text: "Open this link:\nhttps://coref.example.org/reset-password?token=abc\n",
  links: ["https://coref.example.org/reset-password?token=abc"],
};

let log: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  sent.length = 0;
  createTransport.mockClear();
  transport.sendMail.mockClear();
  log = vi.spyOn(console, "log").mockImplementation(() => {});
});

afterEach(() => {
  log.mockRestore();
});

describe("sendMail", () => {
  it("without SMTP_URL writes one log line with the recipient, the subject and the link, and sends nothing", async () => {
    await expect(sendMail(message, {})).resolves.toEqual({ via: "log" });
    expect(createTransport).not.toHaveBeenCalled();
    expect(log).toHaveBeenCalledTimes(1);
    const line = String(log.mock.calls[0]![0]);
    expect(line).not.toContain("\n");
    expect(line).toBe(
      'mail (not sent: SMTP_URL is unset): to "ada@example.org", subject "Reset your Corefboard password", link "https://coref.example.org/reset-password?token=abc"',
    );
  });

  it("with SMTP_URL sends through nodemailer's transport for that URL, from MAIL_FROM, and logs nothing", async () => {
    const env = { SMTP_URL: "smtps://user:secret@mail.example.org:465", MAIL_FROM: "Shared Task <task@example.org>" };
    await expect(sendMail(message, env)).resolves.toEqual({ via: "smtp", messageId: "<1@mail.example.org>" });
    expect(createTransport).toHaveBeenCalledWith("smtps://user:secret@mail.example.org:465");
    expect(sent).toEqual([{ from: "Shared Task <task@example.org>", to: "ada@example.org", subject: message.subject, text: message.text }]);
    expect(log).not.toHaveBeenCalled();

    // The transport is made once per URL, and again when the URL changes.
    await sendMail(message, env);
    expect(createTransport).toHaveBeenCalledTimes(1);
    await sendMail(message, { SMTP_URL: "smtp://other.example.org:25", NEXTAUTH_URL: "https://coref.example.org" });
    expect(createTransport).toHaveBeenCalledTimes(2);
    expect(createTransport).toHaveBeenLastCalledWith("smtp://other.example.org:25");
    expect(sent[2]).toMatchObject({ from: "Corefboard <no-reply@coref.example.org>" });
  });

  it("passes a refusal of the SMTP server on to the caller", async () => {
    transport.sendMail.mockRejectedValueOnce(new Error("550 mailbox unavailable"));
    await expect(sendMail(message, { SMTP_URL: "smtp://refusing.example.org:25" })).rejects.toThrow("550 mailbox unavailable");
  });
});
