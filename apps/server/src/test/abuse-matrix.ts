// Abuse limits as data (issue 24), like the permission matrix: each row is an action an ordinary account can repeat,
// the limit that bounds it, and how to try it past that limit. abuse.test.ts runs every row twice, sequentially and
// with all attempts at once, on SQLite and PostgreSQL, and asserts the limit held and nothing else changed.
import { DAILY_CAPS, PLAY_LIMITS, REPORTS_PER_MINUTE, SUGGESTIONS_PER_MINUTE } from "@unheard/shared";
import { ipPrefix } from "../lib/client-origin.js";
import { createPlayTokens } from "../modules/plays/play-token.js";
import type { User } from "./fixtures.js";
import type { TestContext } from "./harness.js";

/** What one attempt answered. */
export type AbuseAnswer = { statusCode: number; body: string };

/** One attack, prepared on fresh accounts and songs. */
export type AbuseAttack = {
  /** Send attempt `i` (0-based). */
  send(i: number): Promise<AbuseAnswer>;
  /** The rows the action has made so far (or, where it makes none, what it got through): what the limit bounds. */
  made(): Promise<number>;
  /** Further checks once every attempt is answered (the owner still gets in, say). */
  after?(answers: AbuseAnswer[]): Promise<void>;
  /** Let go of what the attack holds open (event streams). */
  release?(): Promise<void>;
};

/** A member the kit made: signed in, with the e-mail and password it signs in with. */
export type Member = User & { email: string; password: string };

/** What a test kit gives a row: fresh members and songs, unique per call. */
export type AbuseKit = {
  ctx: TestContext;
  /** A new verified member, let in from the waitlist, of trust level 0 (a new account). */
  member(): Promise<Member>;
  /** A new account, e-mail verified and signed in, that the waitlist still holds. */
  heldAccount(): Promise<Member>;
  /** A song owned by `owner` (a fresh member when omitted); `verified` for a verified one. */
  song(opts?: { owner?: User; verified?: boolean; hidden?: boolean }): Promise<string>;
  /** A placeholder artist, by id. */
  artist(): Promise<string>;
  /** Upload a 2 s WAV made from `seed` as `user`. */
  upload(user: User, fields: Record<string, string>, seed: string): Promise<AbuseAnswer>;
  /** A user's username, by id. */
  usernameOf(id: string): Promise<string>;
  /** A client address no other attempt used. */
  clientAddress(): string;
  /** A unique text for titles and names. */
  unique(prefix: string): string;
  /** Rows of `table` where `column` is `value`. */
  count(table: string, column: string, value: string): Promise<number>;
  /** An authenticated request as `user`; `from` is the client address it comes from. */
  as(user: User | undefined, method: string, url: string, payload?: unknown, from?: string): Promise<AbuseAnswer>;
  /** Open the live-event stream as `user` over a real connection: its status, and a way to close it. */
  stream(user: User): Promise<{ statusCode: number; body: string; close(): void }>;
  /** The e-mails sent to `email` so far. */
  mails(email: string): number;
  /** Pages the server has rendered so far (rows with `pages`; 0 without a renderer). */
  renders(): number;
};

/** One row of the table. */
export type AbuseCase = {
  action: string;
  /** The rule that bounds it, as docs/SECURITY.md states it. */
  limit: string;
  /** Attempts sent. */
  attempts: number;
  /** Attempts that succeed (2xx): the first ones when sent one after another. */
  succeed: number;
  /** Rows made at the end. */
  rows: number;
  /** The status every other attempt gets (one of them, when a list). */
  refusal: number | number[];
  /** Settings the row needs beyond the suite's (the rows that share them share one app). */
  env?: Record<string, string>;
  /**
   * The row asks for the web app's pages: its app serves a built index.html and renders pages on the server, and
   * its refusals are pages (HTML with their message), not the API's JSON.
   */
  pages?: boolean;
  /** Tables a successful attempt may change; every other table must be left as it was. */
  writes: string[];
  prepare(kit: AbuseKit): Promise<AbuseAttack>;
};

const LEVEL0 = 0;

/** Songs for an attack that needs one target per attempt. */
async function songs(kit: AbuseKit, n: number, verified = false): Promise<string[]> {
  const owner = await kit.member();
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(await kit.song({ owner, verified }));
  return out;
}

/** Give songs audio of `seconds` (a play needs some; no file is read). */
async function withAudio(kit: AbuseKit, ids: string[], seconds = 120): Promise<void> {
  await kit.ctx.database.db
    .updateTable("song")
    .set({ audio_key: "abuse-no-file.wav", audio_mime: "audio/wav", duration_sec: seconds })
    .where("id", "in", ids)
    .execute();
}

/** A start token of `user`'s for each song, started a minute ago (past every threshold), as the server signs them. */
function playTokens(kit: AbuseKit, user: User, songIds: string[]): { tokens: string[]; listener: string } {
  const signer = createPlayTokens(kit.ctx.config.authSecret);
  const listener = signer.listener(`user:${user.id}`);
  const startedAt = Date.now() - 60_000;
  return { tokens: songIds.map((songId) => signer.sign({ songId, listener, startedAt })), listener };
}

/** A start token for each song as the server signs one for a visitor's network (`from` its address), a minute old. */
function networkTokens(kit: AbuseKit, from: string, songIds: string[]): string[] {
  const signer = createPlayTokens(kit.ctx.config.authSecret);
  const listener = signer.listener(`net:${ipPrefix(from)}`);
  const startedAt = Date.now() - 60_000;
  return songIds.map((songId) => signer.sign({ songId, listener, startedAt }));
}

/** The read budget of the page rows: a page, and every read a render makes, is one. */
const PAGE_READS = 10;

/** Plays' per-address limits at their defaults. */
const PLAY_LIMITS_ON = {
  PLAY_STARTS_PER_MINUTE: String(PLAY_LIMITS.startsPerMinute),
  PLAY_REPORTS_PER_MINUTE: String(PLAY_LIMITS.reportsPerMinute),
};

/** Identify's hourly limits, small so a row stays quick (defaults: 30 a member, 60 an address; decision 032). */
const IDENTIFY_LIMITS_ON = { IDENTIFY_PER_MEMBER_HOUR: "4", IDENTIFY_PER_ADDRESS_HOUR: "6" };

/** Send one second of a tone to Identify as `user` from `from`, as the page streams the microphone. */
async function identifyTone(kit: AbuseKit, user: User, from: string): Promise<AbuseAnswer> {
  const rate = 8000;
  const pcm = Buffer.alloc(rate * 2);
  for (let i = 0; i < rate; i++) pcm.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 8000), i * 2);
  const res = await kit.ctx.app.inject({
    method: "POST",
    url: `/api/identify/pcm?sampleRate=${rate}`,
    headers: { cookie: user.cookie, "content-type": "application/octet-stream" },
    payload: pcm,
    remoteAddress: from,
  });
  return { statusCode: res.statusCode, body: res.body };
}

/** A count once it has stayed the same for half a second (at most 5 s). */
async function settled(read: () => number): Promise<number> {
  let last = read();
  for (let waited = 0; waited < 5000; waited += 250) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = read();
    if (now === last && waited >= 250) return now;
    last = now;
  }
  return last;
}

/** The table: every action an ordinary account repeats, with its limit. */
export const ABUSE_MATRIX: AbuseCase[] = [
  {
    action: "vote",
    limit: `a new member casts at most ${DAILY_CAPS.votes[LEVEL0]} votes a day`,
    attempts: DAILY_CAPS.votes[LEVEL0] + 4,
    succeed: DAILY_CAPS.votes[LEVEL0],
    rows: DAILY_CAPS.votes[LEVEL0],
    refusal: 429,
    writes: ["vote", "song", "points_ledger", "user", "notification"],
    async prepare(kit) {
      const voter = await kit.member();
      const targets = await songs(kit, this.attempts);
      return {
        send: (i) => kit.as(voter, "PUT", `/api/songs/${targets[i]}/vote`, { value: "up" }),
        made: () => kit.count("vote", "user_id", voter.id),
      };
    },
  },
  {
    action: "report",
    limit: `a new member files at most ${DAILY_CAPS.reports[LEVEL0]} reports a day, ${REPORTS_PER_MINUTE} a minute`,
    attempts: DAILY_CAPS.reports[LEVEL0] + 3,
    succeed: DAILY_CAPS.reports[LEVEL0],
    rows: DAILY_CAPS.reports[LEVEL0],
    refusal: 429,
    writes: ["report", "song", "notification"],
    async prepare(kit) {
      const reporter = await kit.member();
      const targets = await songs(kit, this.attempts, true);
      return {
        send: (i) =>
          kit.as(reporter, "POST", `/api/songs/${targets[i]}/reports`, { reason: "duplicate", details: "repeat" }),
        made: () => kit.count("report", "user_id", reporter.id),
      };
    },
  },
  {
    action: "report the same song",
    limit: "one open report per member and song",
    attempts: 4,
    succeed: 1,
    rows: 1,
    refusal: 409,
    writes: ["report", "song", "notification"],
    async prepare(kit) {
      const reporter = await kit.member();
      const target = await kit.song({ verified: true });
      return {
        send: () => kit.as(reporter, "POST", `/api/songs/${target}/reports`, { reason: "duplicate", details: "again" }),
        made: () => kit.count("report", "user_id", reporter.id),
      };
    },
  },
  {
    action: "favourite",
    limit: "a favourite is one row per member and song, and the count follows the rows",
    attempts: 8,
    succeed: 8,
    rows: 1,
    refusal: 0,
    writes: ["favorite", "song"],
    async prepare(kit) {
      const fan = await kit.member();
      const target = await kit.song({ verified: true });
      return {
        send: () => kit.as(fan, "PUT", `/api/songs/${target}/favorite`),
        made: () => kit.count("favorite", "user_id", fan.id),
      };
    },
  },
  {
    action: "follow",
    limit: "a follow is one row per member and artist, and the count follows the rows",
    attempts: 8,
    succeed: 8,
    rows: 1,
    refusal: 0,
    writes: ["follow", "user"],
    async prepare(kit) {
      const fan = await kit.member();
      const artist = await kit.artist();
      return {
        send: () => kit.as(fan, "PUT", `/api/artists/${artist}/follow`),
        made: () => kit.count("follow", "follower_id", fan.id),
      };
    },
  },
  {
    action: "count a play",
    limit: "a play counts once per listener and song an hour, and the count follows the rows",
    attempts: 8,
    succeed: 8,
    rows: 1,
    refusal: 0,
    writes: ["song_play", "song"],
    async prepare(kit) {
      const listener = await kit.member();
      const target = await kit.song({ verified: true });
      await withAudio(kit, [target]);
      const { tokens } = playTokens(kit, listener, [target]);
      return {
        send: () => kit.as(listener, "POST", `/api/songs/${target}/plays`, { token: tokens[0] }),
        made: () => kit.count("song_play", "song_id", target),
      };
    },
  },
  {
    action: "report plays",
    limit: `one client address reports at most ${PLAY_LIMITS.reportsPerMinute} plays a minute`,
    env: PLAY_LIMITS_ON,
    attempts: PLAY_LIMITS.reportsPerMinute + 3,
    succeed: PLAY_LIMITS.reportsPerMinute,
    rows: PLAY_LIMITS.reportsPerMinute,
    refusal: 429,
    writes: ["song_play", "song"],
    async prepare(kit) {
      const listener = await kit.member();
      const targets = await songs(kit, this.attempts, true);
      await withAudio(kit, targets);
      const played = playTokens(kit, listener, targets);
      const from = kit.clientAddress();
      return {
        send: (i) => kit.as(listener, "POST", `/api/songs/${targets[i]}/plays`, { token: played.tokens[i] }, from),
        made: () => kit.count("song_play", "listener", played.listener),
      };
    },
  },
  {
    action: "start plays",
    limit: `one client address starts at most ${PLAY_LIMITS.startsPerMinute} plays a minute`,
    env: PLAY_LIMITS_ON,
    attempts: PLAY_LIMITS.startsPerMinute + 3,
    succeed: PLAY_LIMITS.startsPerMinute,
    rows: PLAY_LIMITS.startsPerMinute,
    refusal: 429,
    writes: [],
    async prepare(kit) {
      const target = await kit.song({ verified: true });
      await withAudio(kit, [target]);
      const from = kit.clientAddress();
      let started = 0;
      return {
        async send() {
          const a = await kit.as(undefined, "POST", `/api/songs/${target}/plays/start`, undefined, from);
          if (a.statusCode === 200) started++;
          return a;
        },
        // A start writes nothing: what the limit bounds is the tokens handed out.
        made: async () => started,
      };
    },
  },
  {
    // Issue 38: five accounts never let in added five plays to one song in one window.
    action: "count plays by accounts the waitlist holds",
    limit: "an account the waitlist holds listens as a visitor of its network: once per network and song an hour",
    attempts: 5,
    succeed: 5,
    rows: 1,
    refusal: 0,
    writes: ["song_play", "song"],
    async prepare(kit) {
      const held = await Promise.all(Array.from({ length: this.attempts }, () => kit.heldAccount()));
      const target = await kit.song({ verified: true });
      await withAudio(kit, [target]);
      const from = kit.clientAddress();
      // Each started from the one network: the listener the server names them (a user's token would not do).
      const tokens = held.map(() => networkTokens(kit, from, [target])[0]);
      return {
        send: (i) => kit.as(held[i], "POST", `/api/songs/${target}/plays`, { token: tokens[i] }, from),
        made: () => kit.count("song_play", "song_id", target),
      };
    },
  },
  {
    // Issue 38: any unknown query string made a fresh render and a new entry in the page cache.
    action: "ask for pages with one-off query strings",
    limit: "a page is rendered by the parameters it reads: any other URL is redirected there, with no render",
    pages: true,
    attempts: 20,
    succeed: 20,
    rows: 0,
    refusal: 0,
    writes: [],
    async prepare(kit) {
      const song = await kit.song({ verified: true });
      const routes = ["/", "/about", "/landing", `/song/${song}`, "/?q=abuse"];
      const from = kit.clientAddress();
      const tag = kit.unique("x").replace(/\W/g, "");
      const before = kit.renders();
      return {
        send(i) {
          const route = routes[i % routes.length] ?? "/";
          return kit.as(undefined, "GET", `${route}${route.includes("?") ? "&" : "?"}${tag}=${i}`, undefined, from);
        },
        made: async () => kit.renders() - before,
        async after(answers) {
          if (!answers.every((a) => a.statusCode === 301)) throw new Error("a one-off URL was not redirected");
        },
      };
    },
  },
  {
    // Issue 38: /about and /landing counted against no limit (234 and 138 renders a second from one address).
    action: "ask for pages",
    limit: `a page is a public read: ${PAGE_READS} a minute per client address (PUBLIC_RATE_LIMIT), cached or not`,
    pages: true,
    env: { PUBLIC_RATE_LIMIT: String(PAGE_READS) },
    attempts: PAGE_READS + 4,
    succeed: PAGE_READS,
    rows: 0,
    refusal: 429,
    writes: [],
    async prepare(kit) {
      const routes = ["/about", "/landing"];
      // Rendered for someone else first: the attacker's pages come from memory, and still count.
      for (const url of routes) await kit.as(undefined, "GET", url, undefined, kit.clientAddress());
      const from = kit.clientAddress();
      const before = kit.renders();
      return {
        send: (i) => kit.as(undefined, "GET", routes[i % routes.length] ?? "/", undefined, from),
        made: async () => kit.renders() - before,
      };
    },
  },
  {
    // Issue 38: a home render refused by the read limit still paid a render pass (211 a second from one address).
    action: "ask for new pages past the read budget",
    limit: "a page over the address's budget is refused before it is looked up or rendered",
    pages: true,
    env: { PUBLIC_RATE_LIMIT: String(PAGE_READS) },
    attempts: 6,
    succeed: 0,
    rows: 0,
    refusal: 429,
    writes: [],
    async prepare(kit) {
      const from = kit.clientAddress();
      for (let i = 0; i < PAGE_READS; i++) await kit.as(undefined, "GET", "/api/songs", undefined, from);
      const tag = kit.unique("fresh").replace(/\W/g, "");
      const before = kit.renders();
      return {
        send: (i) => kit.as(undefined, "GET", `/?q=${tag}${i}`, undefined, from),
        made: async () => kit.renders() - before,
      };
    },
  },
  {
    action: "upload",
    limit: `a new member uploads at most ${DAILY_CAPS.uploads[LEVEL0]} songs a day`,
    attempts: DAILY_CAPS.uploads[LEVEL0] + 3,
    succeed: DAILY_CAPS.uploads[LEVEL0],
    rows: DAILY_CAPS.uploads[LEVEL0],
    refusal: 429,
    writes: [
      "song",
      "song_artist",
      "user",
      "job",
      "notification",
      // An upload is a line of its artist's changelog (issue 37).
      "artist_change",
    ],
    async prepare(kit) {
      const uploader = await kit.member();
      const tag = kit.unique("Capped");
      return {
        send: (i) => kit.upload(uploader, { title: `${tag} ${i}`, artists: `${tag} Artist` }, `${tag} tune ${i}`),
        made: () => kit.count("song", "submitted_by", uploader.id),
      };
    },
  },
  {
    action: "suggest an edit",
    limit: `a new member suggests at most ${DAILY_CAPS.suggestions[LEVEL0]} edits a day, ${SUGGESTIONS_PER_MINUTE} a minute`,
    attempts: DAILY_CAPS.suggestions[LEVEL0] + 3,
    succeed: DAILY_CAPS.suggestions[LEVEL0],
    rows: DAILY_CAPS.suggestions[LEVEL0],
    refusal: 429,
    writes: ["edit_suggestion", "notification"],
    async prepare(kit) {
      const suggester = await kit.member();
      const targets = await songs(kit, this.attempts, true);
      return {
        send: (i) =>
          kit.as(suggester, "POST", `/api/songs/${targets[i]}/edit-suggestions`, {
            title: kit.unique("Better Title"),
            artists: ["Someone Else"],
            genre: "Rock",
            reason: "flood",
          }),
        made: () => kit.count("edit_suggestion", "submitted_by", suggester.id),
      };
    },
  },
  {
    action: "suggest on the same song",
    limit: "one open suggestion per member and song",
    attempts: 4,
    succeed: 1,
    rows: 1,
    refusal: 409,
    writes: ["edit_suggestion", "notification"],
    async prepare(kit) {
      const suggester = await kit.member();
      const target = await kit.song({ verified: true });
      return {
        send: (i) =>
          kit.as(suggester, "POST", `/api/songs/${target}/edit-suggestions`, {
            title: `Another Title ${i}`,
            artists: ["Someone Else"],
            genre: "Rock",
            reason: "again",
          }),
        made: () => kit.count("edit_suggestion", "submitted_by", suggester.id),
      };
    },
  },
  {
    action: "suggest on a hidden song",
    limit: "a hidden song answers as an unknown one",
    attempts: 3,
    succeed: 0,
    rows: 0,
    refusal: 404,
    writes: [],
    async prepare(kit) {
      const suggester = await kit.member();
      const target = await kit.song({ verified: true, hidden: true });
      return {
        send: () =>
          kit.as(suggester, "POST", `/api/songs/${target}/edit-suggestions`, {
            title: "Peek",
            artists: ["Someone Else"],
            genre: "Rock",
            reason: "is it there?",
          }),
        made: () => kit.count("edit_suggestion", "submitted_by", suggester.id),
      };
    },
  },
  {
    action: "rename to an artist's name",
    limit: "an artist's name, or a look-alike of it, is never a member's",
    attempts: 3,
    succeed: 0,
    rows: 0,
    // Taken (409), or a name mixing alphabets (400).
    refusal: [409, 400],
    writes: [],
    async prepare(kit) {
      const squatter = await kit.member();
      const artist = await kit.artist();
      const name = await kit.usernameOf(artist);
      // The artist's own name, with Cyrillic "А"/"а" for the Latin letters, and in fullwidth letters.
      const fullwidth = (c: string) => String.fromCodePoint((c.codePointAt(0) ?? 0) + 0xfee0);
      const names = [name, name.replace(/A/g, "\u0410").replace(/a/g, "\u0430"), name.replace(/[A-Za-z]/g, fullwidth)];
      return {
        send: (i) => kit.as(squatter, "PATCH", "/api/me", { username: names[i] }),
        made: async () => (names.includes(await kit.usernameOf(squatter.id)) ? 1 : 0),
      };
    },
  },
  {
    action: "link a version to someone else's song",
    limit: "a version link needs the owner of both songs, or an admin",
    attempts: 3,
    succeed: 0,
    rows: 0,
    refusal: 403,
    writes: [],
    async prepare(kit) {
      const faker = await kit.member();
      const own = await kit.song({ owner: faker });
      const target = await kit.song({ verified: true });
      const kinds = ["official", "remix", "snippet"];
      return {
        send: (i) => kit.as(faker, "PUT", `/api/songs/${own}/version-of`, { songId: target, kind: kinds[i] }),
        made: () => kit.count("song", "version_of", target),
      };
    },
  },
  {
    action: "open live-event streams",
    limit: "at most 8 open streams per member",
    env: { EVENT_STREAMS_PER_USER: "8", EVENT_STREAMS_PER_ADDRESS: "16" },
    attempts: 10,
    succeed: 8,
    rows: 8,
    refusal: 429,
    writes: [],
    async prepare(kit) {
      const watcher = await kit.member();
      const open: { close(): void }[] = [];
      return {
        async send() {
          const s = await kit.stream(watcher);
          if (s.statusCode === 200) open.push(s);
          else s.close();
          return s;
        },
        made: async () => open.length,
        async release() {
          for (const s of open) s.close();
        },
      };
    },
  },
  {
    // Issue 39: each clip is a recognition on the audio pool's threads.
    action: "identify clips",
    limit: `a member identifies at most IDENTIFY_PER_MEMBER_HOUR clips an hour (${IDENTIFY_LIMITS_ON.IDENTIFY_PER_MEMBER_HOUR} here)`,
    env: IDENTIFY_LIMITS_ON,
    attempts: 7,
    succeed: 4,
    rows: 4,
    refusal: 429,
    // Nothing of a clip is stored (the limits' counters are not compared).
    writes: [],
    async prepare(kit) {
      const listener = await kit.member();
      const from = kit.clientAddress();
      let answered = 0;
      return {
        async send() {
          const a = await identifyTone(kit, listener, from);
          if (a.statusCode === 200) answered++;
          return a;
        },
        made: async () => answered,
      };
    },
  },
  {
    action: "identify clips from one address with many accounts",
    limit: `one client address identifies at most IDENTIFY_PER_ADDRESS_HOUR clips an hour (${IDENTIFY_LIMITS_ON.IDENTIFY_PER_ADDRESS_HOUR} here), whoever is signed in`,
    env: IDENTIFY_LIMITS_ON,
    attempts: 9,
    succeed: 6,
    rows: 6,
    refusal: 429,
    writes: [],
    async prepare(kit) {
      const accounts: User[] = [];
      for (let i = 0; i < this.attempts; i++) accounts.push(await kit.member());
      const from = kit.clientAddress();
      let answered = 0;
      return {
        async send(i) {
          const a = await identifyTone(kit, accounts[i] as User, from);
          if (a.statusCode === 200) answered++;
          return a;
        },
        made: async () => answered,
      };
    },
  },
  {
    action: "guess a password",
    limit: "10 guesses per account and client; the owner still gets in from another client",
    env: { AUTH_LIMIT_SCALE: "1" },
    attempts: 12,
    succeed: 0,
    rows: 10,
    refusal: [401, 429],
    writes: [],
    async prepare(kit) {
      const owner = await kit.member();
      const attacker = kit.clientAddress();
      let checked = 0;
      return {
        async send(i) {
          const a = await kit.as(
            undefined,
            "POST",
            "/api/auth/login",
            { email: owner.email, password: `guess-${i}` },
            attacker,
          );
          if (a.statusCode === 401) checked++;
          return a;
        },
        made: async () => checked,
        async after(answers) {
          if (!answers.some((a) => a.statusCode === 429)) throw new Error("the guesses were never throttled");
          const login = await kit.as(
            undefined,
            "POST",
            "/api/auth/login",
            { email: owner.email, password: owner.password },
            kit.clientAddress(),
          );
          if (login.statusCode !== 200) throw new Error(`the owner was locked out: ${login.statusCode} ${login.body}`);
        },
      };
    },
  },
  {
    action: "ask for password resets",
    limit: "a few reset mails per account an hour, and the same answer every time",
    env: { AUTH_LIMIT_SCALE: "1" },
    attempts: 5,
    succeed: 5,
    rows: 3,
    refusal: 0,
    writes: ["verification"],
    async prepare(kit) {
      const owner = await kit.member();
      const before = kit.mails(owner.email);
      return {
        send: () => kit.as(undefined, "POST", "/api/auth/forgot-password", { email: owner.email }, kit.clientAddress()),
        // Account mail goes out after the answer: count once the outbox has stopped growing.
        made: async () => (await settled(() => kit.mails(owner.email))) - before,
      };
    },
  },
];
