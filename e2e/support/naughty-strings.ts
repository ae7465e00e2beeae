// Script-injection strings for e2e/xss.spec.ts: our own probes plus a selection from the Big List of Naughty
// Strings' "Script Injection" and "Server Code Injection" sections (https://github.com/minimaxir/big-list-of-naughty-strings,
// MIT), written out here rather than downloaded. Every string that could run script either sets `window.__xss`,
// opens a dialog (alert/prompt/confirm) or asks for a URL on PROBE_HOST, which is what the spec watches for.

/** A host no request should ever go to: `.invalid` never resolves (RFC 2606), so a hit is seen, never answered. */
export const PROBE_HOST = "xss-probe.invalid";

/** Payloads that try to run script or load something when rendered as HTML, an attribute, a URL or a template. */
export const XSS_PAYLOADS: readonly string[] = [
  // Our probes: each one sets window.__xss.
  "<script>window.__xss=1</script>",
  '<img src=x onerror="window.__xss=1">',
  "<svg onload=window.__xss=1>",
  "javascript:window.__xss=1",
  '"><iframe srcdoc="<script>parent.__xss=1</script>">',
  "{{constructor.constructor('window.__xss=1')()}}",
  "</title><script>window.__xss=1</script>",
  "]]><svg onload=window.__xss=1><![CDATA[",
  "<details open ontoggle=window.__xss=1>",
  "<a href=javascript:window.__xss=1>click</a>",
  "<math><mi xlink:href=javascript:window.__xss=1>x</mi></math>",
  "<object data=javascript:window.__xss=1>",
  "<body onload=window.__xss=1>",
  '<meta http-equiv="refresh" content="0;url=javascript:window.__xss=1">',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-literal injection, meant literally.
  "${window.__xss=1}",
  "#{window.__xss=1}",
  "<%= window.__xss=1 %>",
  // Network probes: markup that fetches from PROBE_HOST when parsed.
  `<img src=https://${PROBE_HOST}/img.png>`,
  `<link rel=stylesheet href=https://${PROBE_HOST}/s.css>`,
  `<style>@import 'https://${PROBE_HOST}/i.css';</style>`,
  `<base href=https://${PROBE_HOST}/>`,
  // String.replace replacement patterns: `$'`, "$`" and "$&" splice the surrounding page into the text.
  "$' $` $& $$",
  // From the Big List of Naughty Strings, Script Injection.
  "<script>alert(123)</script>",
  "&lt;script&gt;alert(&#39;123&#39;);&lt;/script&gt;",
  "<img src=x onerror=alert(123) />",
  "<svg><script>123<1>alert(123)</script>",
  '"><script>alert(123)</script>',
  "'><script>alert(123)</script>",
  "</script><script>alert(123)</script>",
  "< / script >< script >alert(123)< / script >",
  " onfocus=JaVaSCript:alert(123) autofocus",
  '" onfocus=JaVaSCript:alert(123) autofocus',
  "' onfocus=JaVaSCript:alert(123) autofocus",
  "＜script＞alert(123)＜/script＞",
  "<sc<script>ript>alert(123)</sc</script>ript>",
  "--><script>alert(123)</script>",
  '";alert(123);t="',
  "';alert(123);t='",
  "JavaScript:alert(123)",
  ";alert(123);",
  "src=JaVaSCript:prompt(132)",
  '"><script>alert(123);</script x="',
  '" autofocus onkeyup="javascript:alert(123)',
  '<script\\x20type="text/javascript">javascript:alert(1);</script>',
  "<IMG SRC=\"javascript:alert('XSS');\">",
  "<IMG SRC=JaVaScRiPt:alert('XSS')>",
  '<IMG """><SCRIPT>alert("XSS")</SCRIPT>">',
  "<IFRAME SRC=\"javascript:alert('XSS');\"></IFRAME>",
  '<div style="background-image: url(javascript:alert(1))">',
  // Server Code Injection.
  "-1; confirm(1)",
  "{{7*7}}[[7*7]]",
];

/**
 * Pack payloads into strings of at most `max` characters each (joined by a space), so a few songs carry them all;
 * every piece stays whole. `reserve` keeps room for a suffix.
 */
export function packPayloads(payloads: readonly string[], max: number, reserve = 0): string[] {
  const out: string[] = [];
  let current = "";
  for (const p of payloads) {
    const next = current ? `${current} ${p}` : p;
    if (next.length + reserve > max && current) {
      out.push(current);
      current = p;
    } else current = next;
  }
  if (current) out.push(current);
  return out;
}
