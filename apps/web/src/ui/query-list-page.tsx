import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { EmptyState, LoadError } from "./list-states";
import { PageHeader } from "./page";
import { Spinner } from "./spinner";

/** The fields of a list query (TanStack Query) that the page's states need. */
type ListQuery<T> = {
  data: T[] | undefined;
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  refetch: () => unknown;
};

/**
 * The page of an admin list (a moderation queue, the waitlist, the users, the audit log): the header, then a
 * spinner while it loads, the load error with a retry, the calm empty state, or `children` with the items.
 */
export function QueryListPage<T>({
  title,
  subtitle,
  actions,
  toolbar,
  query,
  loadingLabel,
  errorMessage,
  empty,
  children,
}: {
  title: string;
  /** The subtitle, or one that tells how many items there are (0 until they are loaded). */
  subtitle: ReactNode | ((count: number) => ReactNode);
  actions?: ReactNode;
  /** Shown between the header and the list, e.g. a search box. */
  toolbar?: ReactNode;
  query: ListQuery<T>;
  loadingLabel: string;
  errorMessage: string;
  empty: { icon: LucideIcon; title: string; text: ReactNode };
  children: (items: T[]) => ReactNode;
}) {
  const items = query.data ?? [];
  return (
    <>
      <PageHeader
        title={title}
        subtitle={typeof subtitle === "function" ? subtitle(items.length) : subtitle}
        actions={actions}
      />
      {toolbar}
      {query.isPending ? (
        <Spinner label={loadingLabel} />
      ) : query.isError ? (
        <LoadError message={errorMessage} onRetry={() => void query.refetch()} retrying={query.isFetching} />
      ) : items.length === 0 ? (
        <EmptyState icon={empty.icon} title={empty.title}>
          {empty.text}
        </EmptyState>
      ) : (
        children(items)
      )}
    </>
  );
}

/** A subtitle that counts the items ("3 pending reports, oldest first.") or, when there are none, says what the list holds. */
export function oldestFirst(one: string, many: string, none: string): (count: number) => string {
  return (count) => (count > 0 ? `${count} ${count === 1 ? one : many}, oldest first.` : none);
}

/** The items as a column of cards, one list item each. */
export function CardList<T extends { id: string }>({
  items,
  spacing,
  children,
}: {
  items: T[];
  spacing: "gap-3" | "gap-4";
  children: (item: T) => ReactNode;
}) {
  return (
    <ul className={`flex flex-col ${spacing}`}>
      {items.map((item) => (
        <li key={item.id}>{children(item)}</li>
      ))}
    </ul>
  );
}
