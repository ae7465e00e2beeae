import { createHmac, timingSafeEqual } from "node:crypto";

/** What a start token vouches for: the song, the listener (as stored: hashed) and when listening started (ms). */
export type PlayClaim = { songId: string; listener: string; startedAt: number };

/**
 * Signed play-start tokens and hashed listener keys (decision 027). Both are keyed by secrets derived from the app's
 * auth secret: a token cannot be made or altered without it (so the 30 s threshold is the server's), and a stored
 * listener hash cannot be turned back into a member id or a network without it. Nothing of a start is stored.
 */
export function createPlayTokens(secret: string) {
  const derive = (purpose: string) => createHmac("sha256", secret).update(`unheard:${purpose}`).digest();
  const tokenKey = derive("play-token");
  const listenerKey = derive("play-listener");
  const mac = (payload: string) => createHmac("sha256", tokenKey).update(payload).digest("base64url");
  return {
    /** The stored form of a listener key ("user:<id>", "net:<prefix>"): a keyed hash, the same every time. */
    listener(raw: string): string {
      return createHmac("sha256", listenerKey).update(raw).digest("base64url");
    },

    /** A token for `claim`: its fields, then their signature. */
    sign(claim: PlayClaim): string {
      const payload = Buffer.from(JSON.stringify([claim.songId, claim.listener, claim.startedAt])).toString(
        "base64url",
      );
      return `${payload}.${mac(payload)}`;
    },

    /** The claim of a token this server signed; null for anything else (garbled, forged, altered). Never throws. */
    verify(token: string): PlayClaim | null {
      const dot = token.lastIndexOf(".");
      if (dot <= 0) return null;
      const payload = token.slice(0, dot);
      const given = Buffer.from(token.slice(dot + 1));
      const expected = Buffer.from(mac(payload));
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      let fields: unknown;
      try {
        fields = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
      } catch {
        return null;
      }
      if (!Array.isArray(fields) || fields.length !== 3) return null;
      const [songId, listener, startedAt] = fields as unknown[];
      if (typeof songId !== "string" || typeof listener !== "string" || !Number.isSafeInteger(startedAt)) return null;
      return { songId, listener, startedAt: startedAt as number };
    },
  };
}

/** The play tokens type. */
export type PlayTokens = ReturnType<typeof createPlayTokens>;
