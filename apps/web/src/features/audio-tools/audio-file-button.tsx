import { FileMusic } from "lucide-react";
import { type ChangeEvent, type ReactNode, useRef } from "react";
import { Button } from "../../ui/button";

/** The audio files the recognition and Identify pages accept. */
const AUDIO_ACCEPT = "audio/*,.mp3,.wav,.ogg,.opus,.flac,.m4a,.aac,.webm";

type AudioFileButtonProps = {
  /** The hidden input's id, for the caller's `<label htmlFor>`. */
  id: string;
  disabled: boolean;
  onFile: (file: File) => void;
  size: "sm" | "lg";
  /** False when the button should be the only tab stop (the hidden input is then skipped). */
  inputTabStop?: boolean;
  children: ReactNode;
};

/** A "choose an audio file" button over a hidden file input: calls `onFile` with the file chosen. */
export function AudioFileButton({ id, disabled, onFile, size, inputTabStop = true, children }: AudioFileButtonProps) {
  const input = useRef<HTMLInputElement>(null);
  const onChange = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    if (file) onFile(file);
    // Choosing the same file again should send it again.
    e.target.value = "";
  };
  return (
    <>
      <Button
        variant="secondary"
        size={size}
        disabled={disabled}
        onClick={() => input.current?.click()}
        icon={<FileMusic aria-hidden className={size === "lg" ? "size-5" : "size-4"} />}
      >
        {children}
      </Button>
      <input
        ref={input}
        id={id}
        type="file"
        accept={AUDIO_ACCEPT}
        disabled={disabled}
        onChange={onChange}
        tabIndex={inputTabStop ? undefined : -1}
        className="sr-only"
      />
    </>
  );
}
