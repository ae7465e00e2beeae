import { type ComponentProps, type ComponentType, lazy, Suspense, useEffect, useSyncExternalStore } from "react";

// Toasts appear only after an action or an error, so sonner (about 9 KB gzip) is not part of the first load:
// `toast` queues its calls, the first one loads sonner and mounts <DeferredToaster>'s Toaster, then the queue plays.
type Sonner = typeof import("sonner");
type Message = Parameters<Sonner["toast"]["success"]>[0];
type Options = Parameters<Sonner["toast"]["success"]>[1];
type Call = (s: Sonner) => void;

let sonner: Sonner | undefined;
let loading: Promise<Sonner> | undefined;
let mounted = false;
let wanted = false;
const queue: Call[] = [];
const listeners = new Set<() => void>();

function loadSonner(): Promise<Sonner> {
  loading ??= import("sonner").then(
    (m) => {
      sonner = m;
      return m;
    },
    (err: unknown) => {
      loading = undefined;
      throw err;
    },
  );
  return loading;
}

function flush() {
  mounted = true;
  const s = sonner;
  if (!s) return;
  for (const call of queue.splice(0)) call(s);
}

function run(call: Call) {
  if (sonner && mounted) {
    call(sonner);
    return;
  }
  queue.push(call);
  want();
}

function make(kind?: "success" | "error" | "info" | "warning") {
  return (message: Message, options?: Options): void =>
    run((s) => {
      if (kind) s.toast[kind](message, options);
      else s.toast(message, options);
    });
}

/** sonner's `toast` (the calls this app uses), loading sonner on first use. */
export const toast = Object.assign(make(), {
  success: make("success"),
  error: make("error"),
  info: make("info"),
  warning: make("warning"),
});

type ToasterProps = ComponentProps<Sonner["Toaster"]>;

/** Render the Toaster now, with no toast yet. */
function want() {
  if (wanted) return;
  wanted = true;
  for (const l of listeners) l();
}

/**
 * Fetch sonner once the page has loaded and the browser is idle: after the first load, but before an action can
 * fail offline (a toast must still say so then). Its Toaster is mounted then too: its live region (aria-live
 * "polite") is in the page before the first toast, as screen readers only announce changes to a region they
 * already know, not a region that arrives with its message.
 */
export function preloadToastsWhenIdle(): void {
  const preload = () => {
    const idle = window.requestIdleCallback ?? ((cb: () => void) => window.setTimeout(cb, 200));
    idle(() => void loadSonner().then(want, () => undefined));
  };
  if (document.readyState === "complete") preload();
  else window.addEventListener("load", preload, { once: true });
}

const LazyToaster = lazy<ComponentType<ToasterProps>>(() =>
  loadSonner().then(
    (m) => ({
      default: function MountedToaster(props: ToasterProps) {
        // Child effects run first: the Toaster is subscribed when this plays the queued toasts.
        useEffect(() => {
          flush();
          return () => {
            mounted = false;
          };
        }, []);
        return <m.Toaster {...props} />;
      },
    }),
    // Could not be fetched (offline before the preload): no toasts rather than a broken page.
    () => ({ default: (_props: ToasterProps) => null }),
  ),
);

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** sonner's <Toaster>, rendered from the first toast on, or once sonner has been preloaded. */
export function DeferredToaster(props: ToasterProps) {
  const show = useSyncExternalStore(
    subscribe,
    () => wanted,
    () => false,
  );
  if (!show) return null;
  return (
    <Suspense fallback={null}>
      <LazyToaster {...props} />
    </Suspense>
  );
}
