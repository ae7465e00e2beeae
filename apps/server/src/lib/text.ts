/**
 * Letters of other scripts (and a few Latin ones) that pass for a Latin letter, by the Latin letter they pass
 * for (issue 24): Cyrillic and Greek twins in either case, dotless i, script g, long s. After NFKC, so fullwidth
 * and styled letters (𝐚, ａ) are already plain. Keys fold them, so 'аdmin' (Cyrillic а) is 'admin'.
 */
const LOOKALIKES: Record<string, string> = {
  // Cyrillic capitals
  А: "a",
  В: "b",
  Е: "e",
  Ѕ: "s",
  І: "i",
  Ї: "i",
  Ј: "j",
  К: "k",
  М: "m",
  Н: "h",
  О: "o",
  Р: "p",
  С: "c",
  Т: "t",
  У: "y",
  Х: "x",
  Ү: "y",
  Һ: "h",
  Ԁ: "d",
  Ԍ: "g",
  Ԛ: "q",
  Ԝ: "w",
  Ӏ: "l",
  // Cyrillic small letters
  а: "a",
  в: "b",
  е: "e",
  ѕ: "s",
  і: "i",
  ї: "i",
  ј: "j",
  к: "k",
  м: "m",
  н: "h",
  о: "o",
  р: "p",
  с: "c",
  т: "t",
  у: "y",
  х: "x",
  ү: "y",
  һ: "h",
  ԁ: "d",
  ԍ: "g",
  ԛ: "q",
  ԝ: "w",
  ӏ: "l",
  п: "n",
  г: "r",
  ѵ: "v",
  ё: "e",
  ь: "b",
  // Greek capitals
  Α: "a",
  Β: "b",
  Ε: "e",
  Ζ: "z",
  Η: "h",
  Ι: "i",
  Κ: "k",
  Μ: "m",
  Ν: "n",
  Ο: "o",
  Ρ: "p",
  Τ: "t",
  Υ: "y",
  Χ: "x",
  Ϲ: "c",
  Ϳ: "j",
  // Greek small letters
  α: "a",
  ι: "i",
  κ: "k",
  ν: "v",
  ο: "o",
  ρ: "p",
  τ: "t",
  υ: "u",
  χ: "x",
  ϲ: "c",
  ϳ: "j",
  ε: "e",
  // Latin letters that pass for others
  ı: "i",
  ɡ: "g",
  ſ: "s",
  ɑ: "a",
  ʏ: "y",
  ɩ: "i",
};
const LOOKALIKE_RE = new RegExp(`[${Object.keys(LOOKALIKES).join("")}]`, "gu");
const fold = (c: string) => LOOKALIKES[c] ?? c;

/**
 * Characters that show nothing: default-ignorable code points (zero-width space and joiners, bidi marks, soft
 * hyphen, BOM, variation selectors, the combining grapheme joiner, Hangul fillers), other format characters,
 * controls (white space is collapsed first) and the blank Braille pattern.
 */
export const INVISIBLE_RE = /[\p{Default_Ignorable_Code_Point}\p{Cf}\p{Cc}\u2800]/gu;

/**
 * Key for case-, width- and look-alike-insensitive comparison of names and titles ('Juice WRLD ' = 'juice wrld',
 * 'аdmin' with a Cyrillic а = 'admin', 'ad\u200bmin' = 'admin'): NFKC, invisible characters dropped, white
 * space collapsed, lower case, look-alike letters folded to the Latin letter they pass for. Accents are kept.
 * The unique username key and every artist and title match use it (decision 022).
 */
export function nameKey(s: string): string {
  return (
    s
      .normalize("NFKC")
      .replace(/\s+/g, " ")
      .replace(INVISIBLE_RE, "")
      .trim()
      .replace(/ {2,}/g, " ")
      .replace(LOOKALIKE_RE, fold)
      .toLowerCase()
      // Lower-casing can make a twin of a letter that was none (Greek Η is a twin of H, its η is not): fold both.
      .replace(LOOKALIKE_RE, fold)
  );
}
