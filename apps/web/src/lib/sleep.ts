/** Resolve after `ms` milliseconds (used for the spec's redirect delays after a toast). */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
