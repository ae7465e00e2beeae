import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, DIALECTS, decodeQuotedPrintable } from "../test/harness.js";
import { createMailer } from "./mail.js";

const silent = {
  info() {},
  warn() {},
  error() {},
  debug() {},
  trace() {},
  fatal() {},
  child() {
    return silent;
  },
  level: "silent",
  silent() {},
};
type Log = Parameters<typeof createMailer>[0]["log"];

/** A real SMTP server in this process that keeps what it receives. */
function startSmtp(): Promise<{ port: number; received: { to: string[]; raw: string }[]; close(): Promise<void> }> {
  const received: { to: string[]; raw: string }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, callback) {
      let raw = "";
      stream.on("data", (c: Buffer) => {
        raw += c.toString("utf8");
      });
      stream.on("end", () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.server.address() as AddressInfo;
      resolve({ port, received, close: () => new Promise((r) => server.close(() => r())) });
    });
  });
}

describe("mail", () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let dir: string;
  beforeAll(async () => {
    smtp = await startSmtp();
    dir = mkdtempSync(path.join(tmpdir(), "unheard-mail-"));
  });
  afterAll(async () => {
    await smtp.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("keeps every message to one recipient sent at the same moment (issue 24: reset mails were overwritten)", async () => {
    const own = mkdtempSync(path.join(dir, "same-"));
    const mailer = createMailer({
      smtpUrl: undefined,
      from: "Unheard <no-reply@unheard.local>",
      dataDir: own,
      log: silent as unknown as Log,
    });
    await Promise.all(
      Array.from({ length: 5 }, (_, i) => mailer.send({ to: "same@example.com", subject: `Reset ${i}`, text: `${i}` })),
    );
    const files = readdirSync(path.join(own, "mail")).filter((f) => f.endsWith("-same@example.com.eml"));
    expect(files).toHaveLength(5);
  });

  it("writes one valid .eml per message to the outbox without SMTP_URL", async () => {
    const mailer = createMailer({
      smtpUrl: undefined,
      from: "Unheard <no-reply@unheard.local>",
      dataDir: dir,
      log: silent as unknown as Log,
    });
    expect(mailer.mode).toBe("outbox");
    await mailer.send({
      to: "zoe@example.com",
      subject: "Hello there",
      text: "Open https://x.example/a?token=abc\n",
      link: "https://x.example/a?token=abc",
    });
    const files = readdirSync(path.join(dir, "mail")).filter((f) => f.endsWith(".eml"));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d{4}-\d{2}-\d{2}T.*-zoe@example\.com\.eml$/);
    const eml = readFileSync(path.join(dir, "mail", files[0] ?? ""), "utf8");
    expect(eml).toMatch(/^From: Unheard <no-reply@unheard\.local>$/m);
    expect(eml).toMatch(/^To: zoe@example\.com$/m);
    expect(eml).toMatch(/^Subject: Hello there$/m);
    expect(eml).toMatch(/^Message-ID: <.+>$/m);
    expect(eml).toMatch(/^Date: .+$/m);
    expect(decodeQuotedPrintable(eml)).toContain("https://x.example/a?token=abc");
  });

  it("writes the plain text beside each .eml, as it was written (issue 25: copied links were broken)", async () => {
    const own = mkdtempSync(path.join(dir, "text-"));
    const mailer = createMailer({
      smtpUrl: undefined,
      from: "Unheard <no-reply@unheard.local>",
      dataDir: own,
      log: silent as unknown as Log,
    });
    // Long enough for quoted-printable to cut it, with "=" that it would write as "=3D".
    const link = `https://x.example/api/auth/verify-email?token=${"a1b2c3d4e5".repeat(20)}&next=%2F`;
    await mailer.send({ to: "kim@example.com", subject: "Verify", text: `Open this:\n\n${link}\n`, link });
    const files = readdirSync(path.join(own, "mail")).sort();
    expect(files).toHaveLength(2);
    const [eml, txt] = files;
    expect(txt).toBe(eml?.replace(/\.eml$/, ".txt"));
    expect(readFileSync(path.join(own, "mail", eml ?? ""), "utf8")).not.toContain(link);
    expect(readFileSync(path.join(own, "mail", txt ?? ""), "utf8")).toBe(
      `To: kim@example.com\nSubject: Verify\n\nOpen this:\n\n${link}\n`,
    );
  });

  for (const dialect of DIALECTS) {
    it(`e-mails a verification link that works as copied from the .txt, at PUBLIC_URL's default [${dialect}]`, async () => {
      // PUBLIC_URL unset: the link goes to the address the terminal prints for HOST and PORT.
      const ctx = await createTestApp(dialect, { env: { PUBLIC_URL: "", HOST: "0.0.0.0", PORT: "4123" } });
      try {
        expect(ctx.config.publicUrl).toBe("http://localhost:4123");
        const email = "copy-paste@example.com";
        const res = await ctx.app.inject({
          method: "POST",
          url: "/api/auth/register",
          payload: { email, password: "secret1", confirmPassword: "secret1" },
        });
        expect(res.statusCode).toBe(201);
        const mail = path.join(ctx.dataDir, "mail");
        const eml = readdirSync(mail).find((f) => f.endsWith(`-${email}.eml`)) ?? "";
        const text = readFileSync(path.join(mail, eml.replace(/\.eml$/, ".txt")), "utf8");
        expect(text).toMatch(/^To: copy-paste@example\.com\nSubject: Verify your e-mail for Unheard\n\n/);
        const links = text.match(/https?:\/\/\S+/g) ?? [];
        expect(links).toHaveLength(1);
        const link = links[0] ?? "";
        // Whole and unescaped, unlike the quoted-printable .eml.
        expect(link).toMatch(/^http:\/\/localhost:4123\/api\/auth\/verify-email\?token=[\w.-]+$/);
        expect(text).not.toMatch(/=\r?\n|=3D/);
        expect(readFileSync(path.join(mail, eml), "utf8")).not.toContain(link);
        const url = new URL(link);
        const verify = await ctx.app.inject({ method: "GET", url: `${url.pathname}${url.search}` });
        expect(verify.statusCode).toBe(302);
        expect(verify.headers.location).toBe("/login?verify=ok");
        const login = await ctx.app.inject({
          method: "POST",
          url: "/api/auth/login",
          payload: { email, password: "secret1" },
        });
        expect(login.statusCode).toBe(200);
      } finally {
        await ctx.close();
      }
    });
  }

  it("sends through real SMTP when SMTP_URL is set", async () => {
    const mailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${smtp.port}`,
      from: "Unheard <no-reply@unheard.local>",
      dataDir: dir,
      log: silent as unknown as Log,
    });
    expect(mailer.mode).toBe("smtp");
    await mailer.send({ to: "yan@example.com", subject: "Over the wire", text: "hello" });
    const got = smtp.received.find((m) => m.to.includes("yan@example.com"));
    expect(got?.raw).toContain("Subject: Over the wire");
  });

  for (const dialect of DIALECTS) {
    it(`delivers the verification e-mail over SMTP during registration [${dialect}]`, async () => {
      const ctx = await createTestApp(dialect, { env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}` } });
      try {
        const res = await ctx.app.inject({
          method: "POST",
          url: "/api/auth/register",
          payload: { email: "smtp-user@example.com", password: "secret1", confirmPassword: "secret1" },
        });
        expect(res.statusCode).toBe(201);
        // The answer does not wait for the mail server (see auth.ts), so the message arrives soon after it.
        await expect.poll(() => smtp.received.some((m) => m.to.includes("smtp-user@example.com"))).toBe(true);
        const got = smtp.received.find((m) => m.to.includes("smtp-user@example.com"));
        expect(decodeQuotedPrintable(got?.raw ?? "")).toMatch(
          /http:\/\/localhost:3000\/api\/auth\/verify-email\?token=/,
        );
        // Nothing went to the outbox.
        expect(() => readdirSync(path.join(ctx.dataDir, "mail"))).toThrow();
      } finally {
        await ctx.close();
      }
    });
  }
});
