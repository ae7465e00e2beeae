import { clsx } from "clsx";
import { Search } from "lucide-react";
import type { InputHTMLAttributes, Ref } from "react";

/**
 * A search input with the magnifier at its left, inside the caller's `relative` wrapper. `className` gives its
 * height, shape, fill and right padding.
 */
export function SearchInput({
  className,
  ref,
  type = "search",
  ...rest
}: InputHTMLAttributes<HTMLInputElement> & { ref?: Ref<HTMLInputElement> }) {
  return (
    <>
      <Search
        aria-hidden
        className="pointer-events-none absolute top-1/2 left-3.5 size-4 -translate-y-1/2 text-zinc-500"
      />
      <input
        ref={ref}
        type={type}
        className={clsx(
          // The outline shows it is a field: 3:1 against what is around it (WCAG 1.4.11).
          "w-full border border-white/35 pl-10 text-zinc-100 placeholder:text-zinc-500 hover:border-white/50",
          "focus:border-violet-400/60 focus:outline-none focus-visible:ring-2",
          className,
        )}
        {...rest}
      />
    </>
  );
}
