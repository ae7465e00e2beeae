import type { Page } from "@playwright/test";
import { MESSAGES, offWaitlistMessage } from "@unheard/shared";
import { as, expect, newCredentials, submitLogin, test, toastWith, uniqueEmail } from "./support/fixtures";
import { waitForMailLink } from "./support/mail";
import { apiAs, apiAsVisitor, createMember } from "./support/members";
import { songCard } from "./support/songs";

type Entry = { email: string; name: string; hasAccount: boolean; emailVerified: boolean };

/** The entries for `email`, read through every page of the admin list (it pages, oldest first). */
async function waitlistEntries(email: string): Promise<Entry[]> {
  const admin = await apiAs("admin");
  const items: Entry[] = [];
  let cursor: string | null = null;
  do {
    const res = await admin.get(`/api/admin/waitlist${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ""}`);
    expect(res.status()).toBe(200);
    const page = (await res.json()) as { items: Entry[]; nextCursor: string | null };
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  await admin.dispose();
  return items.filter((e) => e.email === email);
}

/** Register through the form, open the e-mailed link, and log in, as a newcomer does. */
async function registerVerifyLogin(page: Page, email: string, password: string): Promise<void> {
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
    await registerVerifyLogin(page, email, password);
  });

  await test.step("held at /waitlist, which shows their status, not a form", async () => {
    await page.goto("/upload");
    await expect(page).toHaveURL(/\/waitlist$/);
    await expect(page.getByRole("heading", { level: 1, name: "You're on the waitlist" })).toBeVisible();
    await expect(page.getByText(`Your account ${email} is in the queue.`, { exact: false })).toBeVisible();
    await expect(page.getByRole("form", { name: "Join the waitlist" })).toHaveCount(0);
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
    await expect(page.getByRole("heading", { name: "Waiting for approval" })).toHaveCount(0);
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

// Issue 25: the waitlist was invisible until a favourite failed, and a registered account that never used the form was
// missing from the admin's Waitlist page ("Nobody is waiting").
test("a new member is told about the waitlist on every page, and the admin lets them in from the Waitlist page", async ({
  page,
  browser,
}) => {
  const { email, password } = newCredentials("newcomer");
  const banner = page.getByRole("region", { name: "Waitlist" });

  await test.step("register, verify and log in", async () => {
    await registerVerifyLogin(page, email, password);
  });

  await test.step("the waitlist notice is on every page, and a favourite is refused", async () => {
    for (const path of ["/", "/about", "/profile"]) {
      await page.goto(path);
      await expect(banner).toContainText(MESSAGES.waitlistBannerTitle);
      await expect(banner).toContainText(MESSAGES.waitlistBannerText);
    }
    await page.goto(`/?q=${encodeURIComponent("Neon Prayer")}`);
    const heart = songCard(page, "Neon Prayer").getByRole("button", { name: /favorites?: Neon Prayer/ });
    await heart.click();
    await expect(toastWith(page, MESSAGES.waitlisted)).toBeVisible();
    await expect(heart).toHaveAttribute("aria-pressed", "false");
    await banner.getByRole("link", { name: "What is the waitlist?" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "You're on the waitlist" })).toBeVisible();
    await expect(banner).toHaveCount(0);
  });

  await test.step("the admin finds the registered account on the Waitlist page and approves it", async () => {
    expect(await waitlistEntries(email)).toEqual([expect.objectContaining({ hasAccount: true, emailVerified: true })]);
    const context = await browser.newContext({ storageState: as("admin") });
    const admin = await context.newPage();
    await admin.goto("/admin/waitlist");
    await expect(admin.getByText("Nobody is waiting.")).toHaveCount(0);
    const row = admin.getByRole("row").filter({ hasText: email });
    await expect(row.getByText("Registered", { exact: true })).toBeVisible();
    await row.getByRole("button", { name: "Approve" }).click();
    await expect(toastWith(admin, offWaitlistMessage(email))).toBeVisible();
    await expect(row).toHaveCount(0);
    await context.close();
  });

  await test.step("the notice leaves by itself, and the favourite now counts", async () => {
    await expect(page.getByRole("heading", { name: "You're in!" })).toBeVisible();
    await page.goto(`/?q=${encodeURIComponent("Neon Prayer")}`);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(banner).toHaveCount(0);
    const heart = songCard(page, "Neon Prayer").getByRole("button", { name: /favorites?: Neon Prayer/ });
    await expect(heart).toHaveAttribute("aria-pressed", "false");
    await heart.click();
    await expect(heart).toHaveAttribute("aria-pressed", "true");
    const favourites = (await (await page.request.get("/api/me/favorites")).json()) as { items: { title: string }[] };
    expect(favourites.items.map((s) => s.title)).toContain("Neon Prayer");
  });
});

test("joining by the form while waiting keeps one entry, and letting the user in clears it", async () => {
  const member = await createMember("held");
  expect(await waitlistEntries(member.email)).toEqual([expect.objectContaining({ hasAccount: true })]);
  const joined = await member.api.post("/api/waitlist", { data: { name: "Held Person", email: member.email } });
  expect(joined.status()).toBe(200);
  expect(await waitlistEntries(member.email)).toEqual([expect.objectContaining({ name: "Held Person" })]);
  // An admin lets them in from the users table instead.
  const admin = await apiAs("admin");
  expect((await admin.post(`/api/admin/users/${member.id}/approve`)).status()).toBe(200);
  expect(await waitlistEntries(member.email)).toEqual([]);
  await Promise.all([admin.dispose(), member.api.dispose()]);
});
