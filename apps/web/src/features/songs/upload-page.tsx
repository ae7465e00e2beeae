import { LEAK_FIELDS, MESSAGES, REDIRECT_AFTER_UPLOAD_MS, type Song, VERIFICATION_THRESHOLD } from "@unheard/shared";
import { clsx } from "clsx";
import { CircleCheck, FileAudio, UploadCloud } from "lucide-react";
import { type DragEvent, useEffect, useId, useRef, useState } from "react";
import { type Path, useForm } from "react-hook-form";
import { Link, useNavigate } from "react-router";
import { isApiError } from "../../lib/api/api";
import { handleError } from "../../lib/api/handle-error";
import { formatBytes } from "../../lib/format";
import { toast } from "../../lib/toast";
import { Button } from "../../ui/button";
import { IconCircle } from "../../ui/icon-circle";
import { Notice } from "../../ui/notice";
import { PageHeader, Panel } from "../../ui/page";
import { EMPTY_SONG_FORM, formPath, type SongFormValues, toSongInput, uploadFormResolver } from "./song-form";
import { SongFields } from "./song-form-fields";
import { VersionSuggestion } from "./song-versions";
import { useSong, useUploadSong } from "./songs";

type Phase = { name: "form" } | { name: "uploading"; progress: number } | { name: "success"; song: Song };

const FORM_FIELDS = new Set<string>(["title", "artists", "genre", "releaseDate", "soundcloudUrl", ...LEAK_FIELDS]);

/** /upload: the song's details and audio file, sent with a real progress bar; then the new song's page after 1 s. */
export function UploadPage() {
  const navigate = useNavigate();
  const upload = useUploadSong();
  const form = useForm<SongFormValues>({ resolver: uploadFormResolver, defaultValues: EMPTY_SONG_FORM });
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  // The server found this audio on the site already; the user may still go ahead.
  const [duplicateAudio, setDuplicateAudio] = useState<string | null>(null);
  const [phase, setPhase] = useState<Phase>({ name: "form" });
  const abort = useRef<AbortController | null>(null);

  // Spec §4: success screen, then on after 1 s; unless the audio matched a song it may be a version of, which
  // the success screen offers to link first. On to the new song's page, not home: home shows verified songs only,
  // so the upload would seem to have vanished (issue 25). Replacing /upload: back leads to where the member was.
  const uploadedId = phase.name === "success" ? phase.song.id : undefined;
  const offersLink = phase.name === "success" && phase.song.versionSuggestion !== null;
  useEffect(() => {
    if (!uploadedId || offersLink) return;
    const timer = window.setTimeout(
      () => void navigate(songPath(uploadedId), { replace: true }),
      REDIRECT_AFTER_UPLOAD_MS,
    );
    return () => window.clearTimeout(timer);
  }, [uploadedId, offersLink, navigate]);

  // Leaving the page mid-upload cancels it.
  useEffect(() => () => abort.current?.abort(), []);

  const chooseFile = (next: File | null) => {
    setFile(next);
    setFileError(null);
    setDuplicateAudio(null);
  };

  const send = async (values: SongFormValues, allowDuplicateAudio: boolean) => {
    setFormError(null);
    setDuplicateAudio(null);
    if (!file) {
      setFileError(MESSAGES.uploadAudioRequired);
      return;
    }
    const controller = new AbortController();
    abort.current = controller;
    setPhase({ name: "uploading", progress: 0 });
    try {
      const song = await upload.mutateAsync({
        request: { fields: toSongInput(values), file, allowDuplicateAudio },
        onProgress: (progress) => setPhase({ name: "uploading", progress }),
        signal: controller.signal,
      });
      setPhase({ name: "success", song });
      toast.success(MESSAGES.uploadSuccess);
    } catch (err) {
      setPhase({ name: "form" });
      if (isApiError(err) && err.code === "aborted") return;
      showUploadError(err);
    } finally {
      abort.current = null;
    }
  };

  const onInvalid = () => {
    if (!file) setFileError(MESSAGES.uploadAudioRequired);
  };
  const onSubmit = form.handleSubmit((values) => send(values, false), onInvalid);
  const uploadAnyway = form.handleSubmit((values) => send(values, true), onInvalid);

  const showUploadError = (err: unknown) => {
    if (!isApiError(err)) {
      handleError(err, MESSAGES.uploadFailed);
      return;
    }
    // The same audio is on the site already: say which song, and offer to go ahead.
    if (err.status === 409 && err.fields?.audio) {
      setDuplicateAudio(err.message);
      toast.error(err.message);
      return;
    }
    let placed = false;
    for (const [name, message] of Object.entries(err.fields ?? {})) {
      if (name === "audio") {
        setFileError(message);
        placed = true;
      } else if (FORM_FIELDS.has(name)) {
        form.setError(formPath([name]) as Path<SongFormValues>, { type: "server", message }, { shouldFocus: !placed });
        placed = true;
      }
    }
    // Duplicate, too large and unsupported files say exactly what is wrong.
    if (err.status === 409) setFormError(err.message);
    if ((err.status === 413 || err.status === 415) && !placed) setFileError(err.message);
    if (err.status === 409 || err.status === 413 || err.status === 415) toast.error(err.message);
    else handleError(err, MESSAGES.uploadFailed);
  };

  if (phase.name === "success") return <UploadSuccess song={phase.song} />;
  const uploading = phase.name === "uploading";

  return (
    <>
      <PageHeader title="Upload Song" subtitle="Share an unreleased song with the community." />
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_17rem]">
        <Panel>
          <form noValidate onSubmit={onSubmit} className="flex flex-col gap-6">
            {formError ? <Notice tone="error">{formError}</Notice> : null}
            {duplicateAudio ? (
              <Notice
                tone="error"
                action={
                  <Button variant="secondary" size="sm" onClick={() => void uploadAnyway()}>
                    Upload anyway
                  </Button>
                }
              >
                {duplicateAudio} If this is a different version (a snippet, a remix...), you can upload it anyway and
                link it as a version of that song; admins will see the match.
              </Notice>
            ) : null}
            <SongFields form={form} disabled={uploading} />
            <AudioFileInput file={file} error={fileError} disabled={uploading} onChange={chooseFile} />
            <div className="border-t border-white/[0.06] pt-5">
              {uploading ? (
                <UploadProgress
                  progress={phase.progress}
                  fileName={file?.name ?? ""}
                  onCancel={() => abort.current?.abort()}
                />
              ) : (
                <div className="flex flex-col-reverse gap-3 sm:flex-row sm:items-center sm:justify-between">
                  <p className="text-xs text-zinc-500">New songs start pending until the community verifies them.</p>
                  <Button type="submit" size="lg" icon={<UploadCloud aria-hidden className="size-5" />}>
                    Upload Song
                  </Button>
                </div>
              )}
            </div>
          </form>
        </Panel>
        <UploadGuide />
      </div>
    </>
  );
}

function UploadGuide() {
  const steps = [
    { title: "Upload", text: "Add the song's details and its audio. The file is checked and decoded on the server." },
    {
      title: "Community check",
      text: `Members listen and vote. A net of ${VERIFICATION_THRESHOLD} upvotes verifies the song.`,
    },
    { title: "On the home feed", text: "Verified songs appear on home, in search and in recommendations." },
  ];
  return (
    <aside aria-label="What happens next" className="rounded-2xl border border-white/[0.06] bg-zinc-900/40 p-5">
      <h2 className="text-sm font-semibold text-zinc-200">What happens next</h2>
      <ol className="mt-4 flex flex-col gap-4">
        {steps.map((step, i) => (
          <li key={step.title} className="flex gap-3">
            <span className="grid size-6 shrink-0 place-items-center rounded-full bg-violet-500/20 text-xs font-semibold text-violet-200">
              {i + 1}
            </span>
            <div>
              <p className="text-sm font-medium text-zinc-200">{step.title}</p>
              <p className="mt-0.5 text-xs leading-relaxed text-zinc-500">{step.text}</p>
            </div>
          </li>
        ))}
      </ol>
    </aside>
  );
}

function AudioFileInput({
  file,
  error,
  disabled,
  onChange,
}: {
  file: File | null;
  error: string | null;
  disabled: boolean;
  onChange: (file: File | null) => void;
}) {
  const id = useId();
  const [dragging, setDragging] = useState(false);
  const onDrop = (e: DragEvent<HTMLLabelElement>) => {
    e.preventDefault();
    setDragging(false);
    if (disabled) return;
    const dropped = e.dataTransfer.files[0];
    if (dropped) onChange(dropped);
  };
  return (
    <div className="flex flex-col gap-1.5">
      <span className="text-sm font-medium text-zinc-200">Audio file</span>
      <label
        htmlFor={id}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        className={clsx(
          "flex cursor-pointer items-center gap-4 rounded-2xl border border-dashed px-4 py-5 transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-violet-400/70",
          error
            ? "border-rose-400/60 bg-rose-500/5"
            : dragging
              ? "border-violet-400 bg-violet-500/10"
              : "border-white/15 bg-white/[0.02] hover:border-violet-400/50 hover:bg-white/[0.04]",
          disabled && "pointer-events-none opacity-60",
        )}
      >
        <span className="grid size-12 shrink-0 place-items-center rounded-xl bg-violet-500/15 text-violet-300">
          <FileAudio aria-hidden className="size-6" />
        </span>
        <span className="min-w-0 flex-1">
          {file ? (
            <>
              <span data-testid="audio-file-name" className="block truncate text-sm font-medium text-zinc-100">
                {file.name}
              </span>
              <span className="block text-xs text-zinc-400">
                {formatBytes(file.size)} · click to choose another file
              </span>
            </>
          ) : (
            <>
              <span className="block text-sm font-medium text-zinc-100">Choose an audio file</span>
              <span className="block text-xs text-zinc-400">
                or drop it here · MP3, WAV, OGG, Opus, FLAC, M4A/AAC or WebM
              </span>
            </>
          )}
        </span>
        <input
          id={id}
          type="file"
          accept="audio/*"
          aria-label="Audio file"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          disabled={disabled}
          className="sr-only"
          onChange={(e) => onChange(e.target.files?.[0] ?? null)}
        />
      </label>
      {error ? (
        <p id={`${id}-error`} className="text-sm text-rose-300">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function UploadProgress({
  progress,
  fileName,
  onCancel,
}: {
  progress: number;
  fileName: string;
  onCancel: () => void;
}) {
  const percent = Math.round(progress * 100);
  const processing = progress >= 1;
  return (
    <div className="flex flex-col gap-3">
      <div className="flex items-center justify-between gap-3 text-sm">
        <p className="min-w-0 truncate text-zinc-300">
          {processing ? "Processing audio…" : "Uploading"} <span className="text-zinc-500">{fileName}</span>
        </p>
        <span className="shrink-0 font-semibold tabular-nums text-white">{percent}%</span>
      </div>
      <div
        role="progressbar"
        aria-label="Upload progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-2.5 overflow-hidden rounded-full bg-white/10"
      >
        <div
          className={clsx(
            "h-full rounded-full bg-gradient-to-r from-violet-500 to-fuchsia-500 transition-[width] duration-200",
            processing && "animate-pulse",
          )}
          style={{ width: `${percent}%` }}
        />
      </div>
      {processing ? null : (
        <div>
          <Button variant="ghost" size="sm" onClick={onCancel}>
            Cancel upload
          </Button>
        </div>
      )}
    </div>
  );
}

const songPath = (id: string) => `/song/${encodeURIComponent(id)}`;

function UploadSuccess({ song: uploaded }: { song: Song }) {
  // The cached song follows a version link made here.
  const song = useSong(uploaded.id).data ?? uploaded;
  return (
    <>
      <PageHeader title="Upload Song" subtitle="Share an unreleased song with the community." />
      <Panel className="mx-auto flex max-w-lg flex-col items-center gap-4 py-12 text-center">
        <IconCircle icon={CircleCheck} className="size-14 bg-emerald-500/15 text-emerald-300" iconClassName="size-7" />
        <p role="status" className="text-xl font-semibold text-white">
          {MESSAGES.uploadSuccess}
        </p>
        <p className="text-sm text-zinc-400">
          “{song.title}” is pending until the community verifies it.
          {song.versionSuggestion ? "" : " Taking you to its page…"}
        </p>
        <VersionSuggestion song={song} />
        <Link to={songPath(song.id)} className="text-sm font-medium text-violet-300 hover:underline">
          View the song
        </Link>
      </Panel>
    </>
  );
}
