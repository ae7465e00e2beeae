// Server settings every test server shares (the API harness, server processes, the browser tests and the soak):
// they act as many minutes-old members from one address, so the trust rules and daily caps (decisions 014, 015)
// and the public API's and plays' per-address limits are off. The suites that test these turn them back on.

/** Environment that turns off the trust rules, the daily caps and the public API's and plays' limits. */
export const RULES_OFF_ENV = {
  VOTE_MIN_ACCOUNT_DAYS: "0",
  VOTE_MIN_RECORD: "0",
  CONTESTED_OPEN_HOURS: "0",
  DAILY_CAPS: "false",
  PUBLIC_RATE_LIMIT: "0",
  EXPORT_RATE_LIMIT: "0",
  // Tests and browsers play many songs from one address (decision 027).
  PLAY_STARTS_PER_MINUTE: "0",
  PLAY_REPORTS_PER_MINUTE: "0",
  // The soak files reports faster than a person would.
  REPORTS_PER_MINUTE: "1000",
  // The soak and the browser tests hold many live streams from one address.
  EVENT_STREAMS_PER_ADDRESS: "0",
  EVENT_STREAMS_PER_USER: "0",
} as const satisfies Record<string, string>;
