// A benchmark's section in a results file: from its "## " heading to the next, replaced by the next run of the same
// heading, so text written by hand around the sections (an introduction, findings) stays.
import { readFileSync, writeFileSync } from "node:fs";

/** Put `section` (starting with its "## " heading) in `file` under `title`, replacing one with the same heading. */
export function writeSection(file: string, title: string, section: string): void {
  const heading = section.split("\n")[0] as string;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    text = `# ${title}\n`;
  }
  const at = text.indexOf(`${heading}\n`);
  if (at < 0) {
    writeFileSync(file, `${text.trimEnd()}\n\n${section}\n`);
    return;
  }
  const next = text.indexOf("\n## ", at + heading.length);
  writeFileSync(file, `${text.slice(0, at)}${section}\n${next < 0 ? "" : text.slice(next)}`);
}
