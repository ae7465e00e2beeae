import { MESSAGES } from "@unheard/shared";
import { DEMO } from "./support/env";
import { expect, newCredentials, submitLogin, test, toastWith } from "./support/fixtures";
import { mailCount, waitForMailLink } from "./support/mail";
import { register } from "./support/members";

test("a wrong password says 'Failed to log in' and stays on /login", async ({ page }) => {
  await page.goto("/login");
  await expect(page).toHaveTitle("Login · Unheard");
  await submitLogin(page, DEMO.listener.email, "not-the-password");
  await expect(toastWith(page, MESSAGES.loginFailed)).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole("button", { name: "Log In" })).toBeEnabled();
});

test("the login form checks its fields before calling the server", async ({ page }) => {
  await page.goto("/login");
  await page.getByRole("button", { name: "Log In" }).click();
  await expect(page.getByText(MESSAGES.enterEmailFirst)).toBeVisible();
  await expect(page.getByText("Please enter your password")).toBeVisible();
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByRole("button", { name: "Log In" }).click();
  await expect(page.getByText(MESSAGES.invalidEmail)).toBeVisible();
});

test("an unverified e-mail shows the verify message and can resend the e-mail", async ({ page, request }) => {
  const { email, password } = newCredentials("unverified");
  expect((await register(request, email, password)).status()).toBe(201);
  await waitForMailLink(email, "/api/auth/verify-email");
  const before = await mailCount(email);

  await page.goto("/login");
  await submitLogin(page, email, password);
  const alert = page.getByRole("alert").filter({ hasText: MESSAGES.emailNotVerified });
  await expect(alert).toBeVisible();
  await alert.getByRole("button", { name: "Resend verification email" }).click();
  await expect(toastWith(page, MESSAGES.verificationSent)).toBeVisible();
  // A second verification mail really went out.
  await waitForMailLink(email, "/api/auth/verify-email", { after: before });
});

test("forgot password: its own form asks for the e-mail, then mails a link that resets the password", async ({
  page,
  request,
}) => {
  const { email, password } = newCredentials("reset");
  const newPassword = "after-reset-2";
  await register(request, email, password);
  // Verify through the API link so the reset can end in a successful login.
  const verify = await waitForMailLink(email, "/api/auth/verify-email");
  expect((await request.get(verify, { maxRedirects: 0 })).status()).toBe(302);
  const mailsBefore = await mailCount(email);

  // Issue 38: "Forgot password?" sent a reset at once, and a keyboard user pressing Enter to log in sent one. It now
  // opens a form of its own, with the address typed so far; only "Send reset link" there sends anything.
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Forgot password?" }).click();
  const reset = page.getByRole("form", { name: "Reset your password" });
  await expect(reset.getByLabel("Email")).toHaveValue(email);
  expect(await mailCount(email)).toBe(mailsBefore);
  await reset.getByLabel("Email").fill("");
  await reset.getByRole("button", { name: "Send reset link" }).click();
  await expect(reset.getByText(MESSAGES.enterEmailFirst)).toBeVisible();
  await reset.getByLabel("Email").fill(email);
  await reset.getByRole("button", { name: "Send reset link" }).click();
  await expect(toastWith(page, MESSAGES.resetSent)).toBeVisible();
  // Back on the login form, which says where the link went.
  await expect(page.getByRole("button", { name: "Log In" })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: email })).toContainText(MESSAGES.resetSent);

  const link = await waitForMailLink(email, "/reset-password");
  await page.goto(link);
  await expect(page).toHaveTitle("Reset Password · Unheard");
  await page.getByLabel("New Password").fill(newPassword);
  await page.getByLabel("Confirm Password").fill("different-3");
  await page.getByRole("button", { name: "Set New Password" }).click();
  await expect(page.getByText(MESSAGES.passwordsDoNotMatch)).toBeVisible();
  await page.getByLabel("Confirm Password").fill(newPassword);
  await page.getByRole("button", { name: "Set New Password" }).click();
  await expect(toastWith(page, MESSAGES.passwordUpdated)).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  await submitLogin(page, email, newPassword);
  await expect(toastWith(page, MESSAGES.loginSuccess)).toBeVisible();
});

test("a used or bad verification link lands on /login with an explanation", async ({ page }) => {
  await page.goto("/api/auth/verify-email?token=not-a-real-token");
  await expect(page).toHaveURL(/\/login\?verify=failed$/);
  await expect(page.getByRole("alert").filter({ hasText: MESSAGES.invalidToken })).toBeVisible();
});
