import { Menu } from "lucide-react";
import { lazy, Suspense } from "react";
import { useDeferredPopup } from "../ui/use-deferred-popup";

const loadSheet = () => import("./mobile-menu-sheet");
const MobileMenuSheet = lazy(() => loadSheet().then((m) => ({ default: m.MobileMenuSheet })));

const TRIGGER =
  "grid size-10 shrink-0 place-items-center rounded-full text-zinc-300 hover:bg-white/10 hover:text-white focus-visible:outline-2 focus-visible:outline-violet-400";

/**
 * On small screens the full side menu (About, admin links, Sign Out) opens as a sheet from the left. Until the
 * first press this is a plain button: the sheet (Radix dialog) loads then, fetched ahead on touch, hover or focus.
 */
export function MobileMenu() {
  const { open, setOpen, wanted, triggerProps } = useDeferredPopup(loadSheet);
  const icon = <Menu aria-hidden className="size-5" />;
  const plain = (
    <button {...triggerProps} aria-label="Open menu" className={TRIGGER}>
      {icon}
    </button>
  );
  if (!wanted) return plain;
  return (
    <Suspense fallback={plain}>
      <MobileMenuSheet open={open} onOpenChange={setOpen} className={TRIGGER}>
        {icon}
      </MobileMenuSheet>
    </Suspense>
  );
}
