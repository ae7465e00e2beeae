import { MESSAGES, offWaitlistMessage } from "@unheard/shared";
import { as, expect, newCredentials, submitLogin, test, toastWith, uniqueEmail } from "./support/fixtures";
import { waitForMailLink } from "./support/mail";
import { apiAs, apiAsVisitor, createMember } from "./support/members";

type Entry = { email: string; name: string; hasAccount: boolean };

async function waitlistEntries(email: string): Promise<Entry[]> {
  const admin = await apiAs("admin");
  const res = await admin.get("/api/admin/waitlist");
  expect(res.status()).toBe(200);
  const { items } = (await res.json()) as { items: Entry[] };
  await admin.dispose();
  return items.filter((e) => e.email === email);
}

test("a visitor joins from the landing page, registers, is held at /waitlist, and gets in once approved", async ({
  page,
  browser,
}) => {
  const { email, password } = newCredentials("landing");

  await test.step("join the waitlist from /landing", async () => {
    await page.goto("/landing");
    await page.getByRole("button", { name: "Get Early Access" }).click();
    const form = page.getByRole("form", { name: "Join the waitlist" });
    await form.getByLabel("Name").fill("Landing Visitor");
    await form.getByLabel("Email").fill(email.toUpperCase());
    await form.getByRole("button", { name: "Join the Waitlist" }).click();
    await expect(page.getByText(MESSAGES.waitlistThankYou)).toBeVisible();
    await expect(form).toHaveCount(0);
    // Really stored (e-mail normalised), still without an account.
    expect(await waitlistEntries(email)).toEqual([
      expect.objectContaining({ name: "Landing Visitor", email, hasAccount: false }),
    ]);
  });

  await test.step("register with that e-mail, verify and log in", async () => {
    await page.goto("/register");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByLabel("Confirm Password").fill(password);
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByRole("heading", { name: "Check Your Email" })).toBeVisible();
    await page.goto(await waitForMailLink(email, "/api/auth/verify-email"));
    await expect(page).toHaveURL(/\/login\?verify=ok$/);
    await submitLogin(page, email, password);
    await expect(toastWith(page, MESSAGES.loginSuccess)).toBeVisible();
  });

  await test.step("held at /waitlist with the form prefilled", async () => {
    await page.goto("/upload");
    await expect(page).toHaveURL(/\/waitlist$/);
    await expect(page.getByText("You're on the waitlist.")).toBeVisible();
    await expect(page.getByText(`Your account ${email} is waiting for approval.`)).toBeVisible();
    const form = page.getByRole("form", { name: "Join the waitlist" });
    await expect(form.getByLabel("Email")).toHaveValue(email);
    // Prefilled with the account's handle (a neutral one, never the e-mail's local part: issue 24).
    const { username } = (await (await page.request.get("/api/me")).json()) as { username: string };
    expect(username).not.toContain(email.split("@")[0] ?? "");
    await expect(form.getByLabel("Name")).toHaveValue(username);
  });

  await test.step("an admin approves the entry on /admin/waitlist", async () => {
    const context = await browser.newContext({ storageState: as("admin") });
    const admin = await context.newPage();
    await admin.goto("/admin/waitlist");
    await expect(admin).toHaveTitle("Waitlist Management · Unheard");
    const row = admin.getByRole("row").filter({ hasText: email });
    await expect(row.getByRole("rowheader")).toHaveText("Landing Visitor");
    await expect(row.getByText("Registered")).toBeVisible();
    await expect(row.getByRole("cell").nth(1)).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    await row.getByRole("button", { name: "Approve" }).click();
    const toast = toastWith(admin, offWaitlistMessage(email));
    await expect(toast).toBeVisible();
    await expect(toast).toHaveAttribute("data-type", "success");
    await expect(row).toHaveCount(0);
    await context.close();
  });

  await test.step("the waiting page lets them in live, and guarded pages open", async () => {
    await expect(page.getByRole("heading", { name: "You're in!" })).toBeVisible();
    await expect(page.getByText("You're on the waitlist.")).toHaveCount(0);
    await page.getByRole("main").getByRole("link", { name: "Go to Home" }).click();
    await expect(page).toHaveURL(/\/$/);
    await page.goto("/upload");
    await expect(page).toHaveURL(/\/upload$/);
    await expect(page.getByRole("heading", { level: 1, name: "Upload Song" })).toBeVisible();
  });
});

test("approving an e-mail with no account yet is information, and that account starts off the waitlist", async ({
  browser,
}) => {
  const email = uniqueEmail("early");

  await test.step("join from /waitlist as a visitor, with the field checks", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto("/waitlist");
    await expect(page.getByRole("heading", { level: 1, name: "Join the Waitlist" })).toBeVisible();
    const form = page.getByRole("form", { name: "Join the waitlist" });
    const join = form.getByRole("button", { name: "Join the Waitlist" });
    await join.click();
    await expect(form.getByText(MESSAGES.waitlistNameRequired)).toBeVisible();
    await expect(form.getByText(MESSAGES.waitlistEmailRequired)).toBeVisible();
    await form.getByLabel("Name").fill("Early Bird");
    await form.getByLabel("Email").fill("early@");
    await join.click();
    await expect(form.getByText(MESSAGES.invalidEmail)).toBeVisible();
    await form.getByLabel("Email").fill(email);
    await join.click();
    await expect(toastWith(page, MESSAGES.waitlistJoined)).toBeVisible();
    await expect(page.getByRole("heading", { name: MESSAGES.waitlistJoined })).toBeVisible();
    await context.close();
  });

  await test.step("joining twice is fine and keeps one entry", async () => {
    const visitor = await apiAsVisitor();
    const res = await visitor.post("/api/waitlist", { data: { name: "Early Bird Again", email } });
    expect(res.status()).toBe(200);
    expect(((await res.json()) as { message: string }).message).toBe(MESSAGES.waitlistJoined);
    expect(await waitlistEntries(email)).toEqual([expect.objectContaining({ name: "Early Bird", hasAccount: false })]);
    await visitor.dispose();
  });

  await test.step("the admin approves it before any account exists", async () => {
    const context = await browser.newContext({ storageState: as("admin") });
    const admin = await context.newPage();
    await admin.goto("/admin/waitlist");
    const row = admin.getByRole("row").filter({ hasText: email });
    await expect(row.getByText("No account yet")).toBeVisible();
    await row.getByRole("button", { name: "Approve" }).click();
    const toast = toastWith(admin, MESSAGES.waitlistNoUser);
    await expect(toast).toBeVisible();
    await expect(toast).toHaveAttribute("data-type", "info");
    await expect(row).toHaveCount(0);
    await context.close();
  });

  await test.step("the account registered later is not held", async () => {
    const member = await createMember("unused", { email });
    const me = (await (await member.api.get("/api/me")).json()) as { waitlisted: boolean; offWaitlist: boolean };
    expect(me).toMatchObject({ waitlisted: false, offWaitlist: true });
    await member.api.dispose();
  });
});

test("a waitlisted user sees the form prefilled, and joining keeps them waiting until approved", async ({
  browser,
}) => {
  const member = await createMember("held");
  const context = await browser.newContext({ storageState: await member.api.storageState() });
  const page = await context.newPage();
  await page.goto("/favorites");
  await expect(page).toHaveURL(/\/waitlist$/);
  const form = page.getByRole("form", { name: "Join the waitlist" });
  await expect(form.getByLabel("Email")).toHaveValue(member.email);
  await form.getByLabel("Name").fill("Held Person");
  await form.getByRole("button", { name: "Join the Waitlist" }).click();
  await expect(toastWith(page, MESSAGES.waitlistJoined)).toBeVisible();
  await expect(page.getByText("Your account gets in as soon as an admin approves it.")).toBeVisible();
  expect(await waitlistEntries(member.email)).toEqual([expect.objectContaining({ hasAccount: true })]);

  // An admin lets them in from the users table instead; the page notices by itself.
  const admin = await apiAs("admin");
  expect((await admin.post(`/api/admin/users/${member.id}/approve`)).status()).toBe(200);
  await expect(page.getByRole("heading", { name: "You're in!" })).toBeVisible();
  // Letting a user in also clears their waitlist entry.
  expect(await waitlistEntries(member.email)).toEqual([]);
  await Promise.all([context.close(), admin.dispose(), member.api.dispose()]);
});
