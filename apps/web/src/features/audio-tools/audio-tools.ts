import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type AudioTransform, MESSAGES, type Song } from "@unheard/shared";
import { api, sendRequest } from "../../lib/api/api";

/** A song the recognition ranked, with how sure it is and where in the song the clip starts. */
export type RecognitionCandidate = {
  song: { id: string; title: string; artists: { id: string; name: string }[] };
  /** Query hashes that agree on one alignment with this song. */
  aligned: number;
  /** 0..1. */
  confidence: number;
  offsetSeconds: number;
  /** How the clip was sped up, pitch-shifted or stretched from the song; null when it plays as stored. */
  transform: AudioTransform | null;
};

/** The answer of POST /api/recognition/pcm and /api/recognition/file. */
export type RecognitionResult = {
  /** Fingerprint hashes extracted from the clip. */
  hashes: number;
  /** Seconds of audio the server analysed. */
  seconds: number;
  match: RecognitionMatch | null;
  candidates: RecognitionCandidate[];
  message: string;
};

/** The match: a candidate with how sure it is in words and the runner-up's aligned hashes (decision 028). */
export type RecognitionMatch = RecognitionCandidate & {
  certainty: "sure" | "likely" | "weak";
  runnerUpAligned: number;
  /** What lines up: hashes as stored or through a warp, or speed- and pitch-invariant triplets (decision 033). */
  evidence: "plain" | "warped" | "invariant";
};

/** GET /api/songs/:id/fingerprints. */
export type FingerprintStatus = {
  songId: string;
  count: number;
  perSecond: number;
  fingerprintedAt: string | null;
  preset: string | null;
  job: { status: string; lastError: string | null; attempts: number; updatedAt: string } | null;
};

/** Send a non-JSON body (binary PCM or multipart) and parse the JSON answer, with the ApiError of `apiFetch`. */
function sendBody<T>(path: string, body: BodyInit, headers: Record<string, string>, signal?: AbortSignal) {
  return sendRequest<T>(
    path,
    { method: "POST", headers: { accept: "application/json", ...headers }, body, signal: signal ?? null },
    MESSAGES.processAudioFailed,
  );
}

/** POST /api/recognition/pcm: the whole recording so far, 16-bit little-endian mono PCM at `sampleRate`. */
export function recognizePcm(pcm: ArrayBuffer, sampleRate: number, signal?: AbortSignal) {
  return sendBody<RecognitionResult>(
    `/api/recognition/pcm?sampleRate=${sampleRate}`,
    pcm,
    { "content-type": "application/octet-stream" },
    signal,
  );
}

/** POST /api/recognition/file: an audio clip as the multipart field `audio`. */
export function recognizeFile(file: File, signal?: AbortSignal) {
  const form = new FormData();
  form.append("audio", file, file.name);
  return sendBody<RecognitionResult>("/api/recognition/file", form, {}, signal);
}

const enc = encodeURIComponent;

/** The server's stored fingerprints of a song (admins). */
export function useFingerprintStatus(songId: string | undefined) {
  return useQuery({
    queryKey: ["audio-tools", "fingerprints", songId],
    queryFn: () => api.get<FingerprintStatus>(`/api/songs/${enc(songId ?? "")}/fingerprints`),
    enabled: Boolean(songId),
  });
}

/** Songs to pick from before anything is typed: the newest verified songs and the pending ones. */
export function usePickableSongs() {
  return useQuery({
    queryKey: ["audio-tools", "pickable"],
    queryFn: async () => {
      const [verified, pending] = await Promise.all([
        api.get<{ items: Song[] }>("/api/songs?feed=newest&limit=48"),
        api.get<{ items: Song[] }>("/api/songs/pending").catch(() => ({ items: [] as Song[] })),
      ]);
      const seen = new Set<string>();
      const out: Song[] = [];
      for (const s of [...verified.items, ...pending.items]) {
        if (seen.has(s.id)) continue;
        seen.add(s.id);
        out.push(s);
      }
      return out;
    },
    staleTime: 60_000,
  });
}

/** GET /api/search: songs matching `q` (empty `q` is not sent). */
export function useSongSearch(q: string) {
  return useQuery({
    queryKey: ["audio-tools", "search", q],
    queryFn: async () => (await api.get<{ songs: Song[] }>(`/api/search?q=${enc(q)}&limit=24`)).songs,
    enabled: q.length > 0,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}
