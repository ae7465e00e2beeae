// Summarise a V8 CPU profile (`node --cpu-prof`): self time per function and per file, largest first.
//   npx tsx bench/profile.ts FILE.cpuprofile [--top=N]
import { readFileSync } from "node:fs";

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number } };
type Profile = { nodes: Node[]; samples: number[] };

const file = process.argv.slice(2).find((a) => !a.startsWith("--"));
if (!file) throw new Error("usage: tsx bench/profile.ts FILE.cpuprofile [--top=N]");
const top = Number(process.argv.find((a) => a.startsWith("--top="))?.split("=")[1] ?? 30);
const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const perFunction = new Map<string, number>();
const perFile = new Map<string, number>();
const add = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
for (const id of profile.samples) {
  const frame = nodes.get(id)?.callFrame;
  if (!frame) continue;
  const where = frame.url.split("/").slice(-2).join("/");
  add(perFunction, `${frame.functionName || "(anonymous)"} ${where}:${frame.lineNumber + 1}`);
  add(perFile, frame.url ? frame.url.replace(/^.*node_modules\//, "node_modules/") : frame.functionName);
}
const print = (title: string, m: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [k, n] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${((100 * n) / profile.samples.length).toFixed(1).padStart(6)}%  ${k}`);
};
console.log(`${profile.samples.length} samples`);
print("self time by function", perFunction);
print("self time by file", perFile);
