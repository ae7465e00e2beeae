import { MESSAGES, type Song } from "@unheard/shared";
import { FileMusic, LoaderCircle } from "lucide-react";
import { type ChangeEvent, useCallback, useEffect, useId, useRef, useState } from "react";
import { useSearchParams } from "react-router";
import { api } from "../../lib/api/api";
import { toast } from "../../lib/toast";
import { Button } from "../../ui/button";
import { Notice } from "../../ui/notice";
import { PageHeader, Panel } from "../../ui/page";
import type { AudioReport } from "./analysis";
import { analyzeInBackground } from "./analysis-client";
import { useFingerprintStatus } from "./audio-tools";
import { decodeAudio } from "./decode";
import { QualityReport, type ReportSource } from "./quality-report";
import { SongPicker } from "./song-picker";

/** What the page is doing: nothing yet, a step of the analysis, the report, or why it stopped. */
type Run =
  | { status: "idle" }
  | { status: "working"; stage: string; source: ReportSource }
  | { status: "done"; report: AudioReport; source: ReportSource; native: boolean; songId: string | null }
  | { status: "error"; message: string; source: ReportSource | null };

/** A failure with the message the page shows (the spec's wording). */
class AnalysisFailure extends Error {}

const isAbort = (err: unknown) => err instanceof DOMException && err.name === "AbortError";
const reason = (err: unknown) => (err instanceof Error && err.message ? err.message : String(err));

/** /audio-quality-test (super admin): pick a song or upload a file and get its quality report. */
export function AudioQualityTestPage() {
  const [run, setRun] = useState<Run>({ status: "idle" });
  const [song, setSong] = useState<Song | null>(null);
  const [params, setParams] = useSearchParams();
  const controller = useRef<AbortController | null>(null);
  const fileId = useId();
  const fileInput = useRef<HTMLInputElement>(null);

  const songId = run.status === "done" ? run.songId : null;
  const server = useFingerprintStatus(songId ?? undefined);

  useEffect(() => () => controller.current?.abort(), []);

  /** Decode and analyse bytes, reporting each step; errors become 'Error analyzing audio: ...'. */
  const analyse = useCallback(
    async (
      bytes: ArrayBuffer,
      source: ReportSource,
      rate: number | null,
      songIdOf: string | null,
      signal: AbortSignal,
    ) => {
      setRun({ status: "working", stage: "Decoding audio", source });
      let report: AudioReport;
      let native: boolean;
      try {
        const decoded = await decodeAudio(bytes, rate);
        if (signal.aborted) return;
        native = decoded.nativeRate;
        setRun({ status: "working", stage: "Analysing (levels, spectrum, fingerprints)", source });
        report = await analyzeInBackground(decoded.channels, decoded.sampleRate, signal);
      } catch (err) {
        if (isAbort(err) || signal.aborted) return;
        throw new AnalysisFailure(`${MESSAGES.analysisErrorPrefix}${reason(err)}`);
      }
      if (signal.aborted) return;
      setRun({ status: "done", report, source, native, songId: songIdOf });
    },
    [],
  );

  const fail = useCallback((err: unknown, source: ReportSource | null, signal: AbortSignal) => {
    if (signal.aborted || isAbort(err)) return;
    const message = err instanceof AnalysisFailure ? err.message : `${MESSAGES.analysisErrorPrefix}${reason(err)}`;
    toast.error(message);
    setRun({ status: "error", message, source });
  }, []);

  /** Cancel the analysis in progress and start a new one. */
  const start = useCallback(() => {
    controller.current?.abort();
    const c = new AbortController();
    controller.current = c;
    return c.signal;
  }, []);

  const analyseSong = useCallback(
    async (picked: Song) => {
      const signal = start();
      setSong(picked);
      setParams({ song: picked.id }, { replace: true });
      const source: ReportSource = {
        kind: "song",
        title: picked.title,
        artists: picked.artists.map((a) => a.name).join(", "),
        status: picked.status,
      };
      if (!picked.audio?.url) {
        toast.error(MESSAGES.noAudioUrl);
        setRun({ status: "error", message: MESSAGES.noAudioUrl, source });
        return;
      }
      setRun({ status: "working", stage: "Fetching audio", source });
      let bytes: ArrayBuffer;
      try {
        const res = await fetch(picked.audio.url, { credentials: "same-origin", signal });
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        bytes = await res.arrayBuffer();
      } catch (err) {
        if (signal.aborted || isAbort(err)) return;
        toast.error(MESSAGES.fetchAudioFailed);
        setRun({ status: "error", message: MESSAGES.fetchAudioFailed, source });
        return;
      }
      try {
        await analyse(bytes, source, picked.audio.sampleRate || null, picked.id, signal);
      } catch (err) {
        fail(err, source, signal);
      }
    },
    [analyse, fail, setParams, start],
  );

  const analyseFile = async (file: File) => {
    const signal = start();
    setSong(null);
    if (params.has("song")) setParams({}, { replace: true });
    const source: ReportSource = { kind: "file", name: file.name, size: file.size };
    setRun({ status: "working", stage: "Reading file", source });
    try {
      const bytes = await file.arrayBuffer();
      if (signal.aborted) return;
      await analyse(bytes, source, null, null, signal);
    } catch (err) {
      fail(err, source, signal);
    }
  };

  // A link with ?song=<id> opens the report of that song.
  const initialSong = useRef(params.get("song"));
  useEffect(() => {
    const id = initialSong.current;
    initialSong.current = null;
    if (!id) return;
    api
      .get<Song>(`/api/songs/${encodeURIComponent(id)}`)
      .then((s) => analyseSong(s))
      .catch(() => toast.error(MESSAGES.songNotFound));
  }, [analyseSong]);

  const onFile = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = "";
    if (file) void analyseFile(file);
  };

  const working = run.status === "working";
  return (
    <>
      <PageHeader title="Audio Quality Test" subtitle="Check whether an audio file is likely a real, complete track." />
      <div className="flex flex-col gap-6">
        <Panel>
          <div className="grid items-end gap-5 md:grid-cols-[minmax(0,1fr)_auto_auto]">
            <SongPicker value={song} onSelect={(s) => void analyseSong(s)} />
            <span className="hidden pb-3 text-xs font-medium uppercase tracking-wider text-zinc-500 md:block">or</span>
            <div className="flex flex-col gap-1.5">
              <label htmlFor={fileId} className="text-sm font-medium text-zinc-200">
                Upload an audio file
              </label>
              <Button
                variant="secondary"
                className="h-11"
                onClick={() => fileInput.current?.click()}
                icon={<FileMusic aria-hidden className="size-4" />}
              >
                Choose file
              </Button>
              <input
                ref={fileInput}
                id={fileId}
                type="file"
                accept="audio/*,.mp3,.wav,.ogg,.opus,.flac,.m4a,.aac,.webm"
                onChange={onFile}
                className="sr-only"
              />
            </div>
          </div>
          <p className="mt-3 text-xs text-zinc-500">
            The audio is decoded and measured in your browser at its own sample rate; nothing is uploaded.
          </p>
        </Panel>

        {run.status === "working" ? (
          <Panel className="flex items-center gap-3">
            <LoaderCircle aria-hidden className="size-5 animate-spin text-violet-300" />
            <div role="status">
              <p className="text-sm font-medium text-zinc-100">{run.stage}…</p>
              <p className="text-xs text-zinc-400">{run.source.kind === "song" ? run.source.title : run.source.name}</p>
            </div>
          </Panel>
        ) : null}

        {run.status === "error" ? <Notice tone="error">{run.message}</Notice> : null}

        {run.status === "done" ? (
          <QualityReport
            report={run.report}
            source={run.source}
            decodedNatively={run.native}
            server={
              run.source.kind === "song"
                ? { status: server.data, loading: server.isPending, error: server.isError }
                : undefined
            }
          />
        ) : null}

        {run.status === "idle" && !working ? (
          <Panel className="py-10 text-center">
            <p className="text-sm text-zinc-400">
              Pick a song or upload a file to see its levels, silence, fingerprints, spectral cutoff and spectrogram.
            </p>
          </Panel>
        ) : null}
      </div>
    </>
  );
}
