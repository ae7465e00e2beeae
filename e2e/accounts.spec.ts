import { MESSAGES } from "@unheard/shared";
import { expect, sideMenu, submitLogin, test, toastWith, uniqueEmail } from "./support/fixtures";
import { mailCount, waitForMailLink } from "./support/mail";

test("a new user registers, verifies from the outbox, logs in, edits the profile and logs out", async ({ page }) => {
  const email = uniqueEmail("flow");
  const password = "first-pass-1";
  const newPassword = "second-pass-2";
  const username = `flow_${Date.now().toString(36)}`;
  const chosen = `Flow Pick ${Date.now().toString(36)}`;

  await test.step("register", async () => {
    await page.goto("/register");
    await expect(page).toHaveTitle("Register · Unheard");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByLabel("Confirm Password").fill("something-else");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByText(MESSAGES.passwordsDoNotMatch)).toBeVisible();

    await page.getByLabel("Confirm Password").fill(password);

    // Issue 38: the username is chosen here, a neutral handle offered; the rename rules hold (a taken name, an
    // artist's name). Nothing is created until a name passes.
    const name = page.getByLabel("Username");
    await expect(name).toHaveValue(/^[a-z]+-[a-z]+-\d{4}$/);
    await name.fill("LISTENER");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(name).toHaveAccessibleDescription(MESSAGES.usernameTaken);
    await name.fill("nova reyes");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(name).toHaveAccessibleDescription(MESSAGES.usernameIsArtist);
    expect(await mailCount(email)).toBe(0);
    await name.fill(chosen);
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByRole("heading", { name: "Check Your Email" })).toBeVisible();
    await expect(page.getByText(MESSAGES.registerSuccess)).toBeVisible();
    // Issue 38, finding 5: the suite's server runs with the waitlist gate on, and the screen says what that means;
    // it stays up to be read (spec §2's move on to /login after 3 s is for a site without the gate).
    await expect(page.getByRole("heading", { name: "You join the waitlist" })).toBeVisible();
    await expect(page.getByText(MESSAGES.registerWaitlistNote)).toBeVisible();
    await page.waitForTimeout(4_000);
    await expect(page).toHaveURL(/\/register$/);
    await page.getByRole("link", { name: "Go to Login" }).click();
    await expect(page).toHaveURL(/\/login$/);
  });

  await test.step("verify from the outbox and log in", async () => {
    const link = await waitForMailLink(email, "/api/auth/verify-email");
    await page.goto(link);
    await expect(page).toHaveURL(/\/login\?verify=ok$/);
    await expect(page.getByText(MESSAGES.emailVerified)).toBeVisible();
    await submitLogin(page, email, password);
    await expect(toastWith(page, MESSAGES.loginSuccess)).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
    await expect(sideMenu(page).getByRole("link", { name: "Profile" })).toBeVisible();
  });

  await test.step("a waitlisted user is sent from guarded routes to /waitlist", async () => {
    await page.goto("/upload");
    await expect(page).toHaveURL(/\/waitlist$/);
    await expect(page.getByRole("heading", { level: 1, name: "You're on the waitlist" })).toBeVisible();
  });

  await test.step("profile shows role, points and a read-only e-mail", async () => {
    await sideMenu(page).getByRole("link", { name: "Profile" }).click();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page).toHaveTitle("Profile · Unheard");
    const main = page.getByRole("main");
    // The name chosen at registration.
    await expect(main.getByRole("heading", { name: chosen })).toBeVisible();
    await expect(main.getByText("User", { exact: true })).toBeVisible();
    await expect(main.getByText(email)).toBeVisible();
    await expect(main.getByText("Points")).toBeVisible();
    await main.getByRole("button", { name: "Edit Profile" }).click();
    await expect(main.getByLabel("Email")).toHaveValue(email);
    await expect(main.getByLabel("Email")).not.toBeEditable();
  });

  await test.step("validation and a taken username", async () => {
    const main = page.getByRole("main");
    await main.getByLabel("Current Password").fill(password);
    await main.getByLabel("New Password").fill("12345");
    await main.getByLabel("Confirm Password").fill("12345");
    await main.getByRole("button", { name: "Save Changes" }).click();
    await expect(main.getByText(MESSAGES.passwordTooShort)).toBeVisible();

    await main.getByLabel("New Password").fill(newPassword);
    await main.getByLabel("Confirm Password").fill(`${newPassword}x`);
    await main.getByRole("button", { name: "Save Changes" }).click();
    await expect(main.getByText(MESSAGES.passwordsDoNotMatch)).toBeVisible();

    await main.getByLabel("Current Password").fill("");
    await main.getByLabel("New Password").fill("");
    await main.getByLabel("Confirm Password").fill("");
    await main.getByLabel("Username").fill("LISTENER");
    await main.getByRole("button", { name: "Save Changes" }).click();
    await expect(main.getByText(MESSAGES.usernameTaken)).toBeVisible();
    await expect(toastWith(page, MESSAGES.profileUpdateFailed)).toBeVisible();
  });

  await test.step("save a new username and password", async () => {
    const main = page.getByRole("main");
    await main.getByLabel("Username").fill(username);
    await main.getByLabel("Current Password").fill(password);
    await main.getByLabel("New Password").fill(newPassword);
    await main.getByLabel("Confirm Password").fill(newPassword);
    await main.getByRole("button", { name: "Save Changes" }).click();
    await expect(toastWith(page, MESSAGES.profileUpdated)).toBeVisible();
    await expect(toastWith(page, MESSAGES.passwordUpdated)).toBeVisible();
    await expect(main.getByRole("heading", { name: username })).toBeVisible();
    await expect(main.getByRole("button", { name: "Edit Profile" })).toBeVisible();
  });

  await test.step("sign out, then only the new password works", async () => {
    await page.getByRole("complementary").getByRole("button", { name: "Sign Out" }).click();
    await expect(toastWith(page, MESSAGES.logoutSuccess)).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
    await expect(sideMenu(page).getByRole("link", { name: "Login" })).toBeVisible();

    await page.goto("/login");
    await submitLogin(page, email, password);
    await expect(toastWith(page, MESSAGES.loginFailed)).toBeVisible();
    await submitLogin(page, email, newPassword);
    await expect(toastWith(page, MESSAGES.loginSuccess)).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
  });
});
