import path from "node:path";

/** The demo accounts the server seeds on first start. */
export const DEMO = {
  listener: { email: "listener@unheard.local", password: "listener123" },
  admin: { email: "admin@unheard.local", password: "admin123" },
  super: { email: "super@unheard.local", password: "super123" },
} as const;

/** A demo account's key. */
export type DemoRole = keyof typeof DEMO;

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the suite with \`npx playwright test\` (global setup sets it)`);
  return value;
}

/** Address of the server global setup started. */
export const baseURL = (): string => required("E2E_BASE_URL");
/** That server's DATA_DIR (the mail outbox is its mail/ folder). */
export const dataDir = (): string => required("E2E_DATA_DIR");
/** Saved cookies of a signed-in demo account. */
export const storageStatePath = (role: DemoRole): string => path.join(required("E2E_AUTH_DIR"), `${role}.json`);
