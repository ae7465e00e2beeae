import { clsx } from "clsx";
import { X } from "lucide-react";
import { Dialog } from "radix-ui";
import { type ReactNode, useRef } from "react";

/** A Radix dialog with the app's frame: title, optional description, close button, then `children`. */
export function DialogFrame({
  open,
  onOpenChange,
  title,
  description,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  children: ReactNode;
}) {
  // Radix returns focus to a Dialog.Trigger; these dialogs are opened by plain buttons, so focus went to the page's
  // body on close. The element focused when the dialog opened gets it back (WCAG 2.4.3), if it is still there.
  const opener = useRef<HTMLElement | null>(null);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/60 backdrop-blur-sm data-[state=open]:animate-[fade-in_150ms_ease-out]" />
        <Dialog.Content
          // Without a description Radix must not point at one.
          {...(description ? {} : { "aria-describedby": undefined })}
          onOpenAutoFocus={() => {
            opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
          }}
          onCloseAutoFocus={(event) => {
            const back = opener.current;
            opener.current = null;
            if (back?.isConnected) {
              event.preventDefault();
              back.focus();
            }
          }}
          className="fixed top-1/2 left-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl border border-white/10 bg-zinc-900 p-5 shadow-2xl shadow-black/50 focus:outline-none data-[state=open]:animate-[fade-in_150ms_ease-out] md:p-6"
        >
          <DialogHeader title={title} description={description} className="mb-4" />
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** A dialog's title and optional description, with the close button at the right. */
export function DialogHeader({
  title,
  description,
  className,
}: {
  title: string;
  description?: ReactNode;
  className: string;
}) {
  return (
    <div className={clsx("flex items-start justify-between gap-4", className)}>
      <div className="min-w-0">
        <Dialog.Title className="text-lg font-semibold text-white">{title}</Dialog.Title>
        {description ? (
          <Dialog.Description className="mt-1 text-sm break-words text-zinc-400">{description}</Dialog.Description>
        ) : null}
      </div>
      <Dialog.Close
        aria-label="Close"
        className="-mt-1 -mr-1 grid size-8 shrink-0 place-items-center rounded-full text-zinc-400 hover:bg-white/10 hover:text-white focus-visible:outline-2 focus-visible:outline-violet-400"
      >
        <X aria-hidden className="size-4" />
      </Dialog.Close>
    </div>
  );
}
