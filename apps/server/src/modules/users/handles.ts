import { randomInt } from "node:crypto";
import { neutralHandle } from "@unheard/shared";

/** A random neutral handle such as `quiet-river-4821`: words and a number, never derived from the e-mail. */
export function randomHandle(): string {
  return neutralHandle((min, max) => randomInt(min, max));
}
