// Types of what scripts/build.mjs exports, for the TypeScript that imports it (main.test.ts).

/** A build that ended because the person stopped it (Ctrl-C). */
export declare class BuildStopped extends Error {}
/** What a build says, line by line. */
export declare const SAY: {
  checking: string;
  building: (label: string, tool: string, why: string) => string;
  built: (label: string, seconds: string) => string;
  upToDate: (labels: string[], seconds: string) => string;
  stopped: string;
};
/** The targets in build order, as the lines name them. */
export declare const BUILD_TARGETS: { label: string; tool: string }[];
/** Run a build step; quiet keeps its output and shows it only on failure. */
export declare function run(cmd: string, args: string[], opts?: { quiet?: boolean; cwd?: string }): void;
/** A hash of the names and contents of a target's sources. */
export declare function sourceHash(name: "web" | "server"): string;
/** Build each target whose output is missing or stale. */
export declare function ensureBuilt(opts?: { force?: boolean; quiet?: boolean; log?: (line: string) => void }): void;
export declare const STAMP_FILE: string;
