// A small deterministic music synthesizer for the demo catalogue: every song gets its own tempo, key, scale,
// chord progression, melody, arrangement and instruments, derived from a seed (a hash of its title), in the
// style of its genre. Pure arithmetic on Float32Arrays: no I/O, no dependencies, the same audio on every machine.

import { hashString, seededRandom as rng } from "@unheard/shared";

export { hashString, rng };

/** Bumped whenever the synthesizer's output changes, so cached renders of the old sound are not reused. */
export const SYNTH_VERSION = 2;

/** A demo song's length: 30 to 60 seconds, from its seed. */
export function demoSeconds(seed: number): number {
  return 30 + ((Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) >>> 0) % 31);
}

const pick = <T>(r: () => number, list: readonly T[]): T => list[Math.floor(r() * list.length) % list.length] as T;
const between = (r: () => number, lo: number, hi: number) => lo + r() * (hi - lo);

// Scales as semitone steps from the root.
const SCALES = {
  major: [0, 2, 4, 5, 7, 9, 11],
  minor: [0, 2, 3, 5, 7, 8, 10],
  dorian: [0, 2, 3, 5, 7, 9, 10],
  mixolydian: [0, 2, 4, 5, 7, 9, 10],
  harmonicMinor: [0, 2, 3, 5, 7, 8, 11],
} as const;
type ScaleName = keyof typeof SCALES;

// Chord progressions as scale degrees (0 = the tonic), one chord per bar.
// biome-ignore format: six progressions a line
const PROGRESSIONS: Record<"major" | "minor", readonly (readonly number[])[]> = {
  major: [[0, 4, 5, 3], [0, 5, 3, 4], [5, 3, 0, 4], [0, 3, 4, 3], [0, 3, 5, 4], [1, 4, 0, 5]],
  minor: [[0, 5, 2, 6], [0, 3, 4, 0], [0, 6, 5, 6], [0, 5, 3, 4], [0, 2, 6, 5], [0, 3, 6, 2]],
};

type Drums = "four" | "boombap" | "pop" | "train" | "rock" | "lofi" | "halftime";
type Lead = "saw" | "square" | "soft" | "organ" | "keys" | "pluck" | "bell" | "brass";

/** What a genre sounds like: tempo range, scales, drum pattern, instruments to choose from. */
type Style = {
  bpm: [number, number];
  scales: ScaleName[];
  drums: Drums[];
  leads: Lead[];
  bass: ("sub" | "saw" | "round" | "pick")[];
  bassRhythm: ("held" | "eighths" | "offbeat" | "rootFifth" | "syncopated")[];
  pad: ("soft" | "saw" | "organ" | "strum" | "power" | "keys")[];
  swing: [number, number];
  delay: number;
  drive: number;
  lowpass: number;
};

// biome-ignore format: one style per paragraph reads as a table
const STYLES: Record<string, Style> = {
  Electronic: {
    bpm: [118, 132], swing: [0, 0.05], delay: 0.28, drive: 0.2, lowpass: 0,
    scales: ["minor", "dorian", "major"], drums: ["four"], pad: ["saw", "soft"],
    leads: ["saw", "square", "pluck", "bell"], bass: ["saw", "sub"], bassRhythm: ["offbeat", "eighths", "syncopated"],
  },
  Rap: {
    bpm: [80, 96], swing: [0.08, 0.2], delay: 0.12, drive: 0.1, lowpass: 0,
    scales: ["minor", "harmonicMinor", "dorian"], drums: ["boombap", "halftime"], pad: ["keys", "soft"],
    leads: ["keys", "bell", "pluck", "soft"], bass: ["sub", "round"], bassRhythm: ["held", "syncopated"],
  },
  Pop: {
    bpm: [98, 124], swing: [0, 0.06], delay: 0.18, drive: 0.1, lowpass: 0,
    scales: ["major", "major", "mixolydian", "minor"], drums: ["pop"], pad: ["soft", "keys", "saw"],
    leads: ["square", "soft", "bell", "brass"], bass: ["round", "saw"], bassRhythm: ["eighths", "syncopated", "held"],
  },
  Country: {
    bpm: [88, 118], swing: [0.04, 0.14], delay: 0.06, drive: 0.05, lowpass: 0,
    scales: ["major", "mixolydian"], drums: ["train", "pop"], pad: ["strum"],
    leads: ["pluck", "organ", "soft"], bass: ["pick", "round"], bassRhythm: ["rootFifth"],
  },
  Rock: {
    bpm: [110, 150], swing: [0, 0.03], delay: 0.1, drive: 0.7, lowpass: 0,
    scales: ["minor", "mixolydian", "dorian"], drums: ["rock"], pad: ["power"],
    leads: ["brass", "square", "saw"], bass: ["pick", "saw"], bassRhythm: ["eighths"],
  },
  Other: {
    bpm: [68, 92], swing: [0.1, 0.22], delay: 0.3, drive: 0.15, lowpass: 0.35,
    scales: ["dorian", "major", "minor"], drums: ["lofi", "halftime"], pad: ["keys", "soft", "organ"],
    leads: ["bell", "keys", "soft", "pluck"], bass: ["round", "sub"], bassRhythm: ["held", "syncopated"],
  },
};
const STYLE_NAMES = Object.keys(STYLES);

// One-cycle wavetables, built once per process; partial amplitudes by harmonic number.
const TABLE_SIZE = 2048;
const TABLE_MASK = TABLE_SIZE - 1;
const tables = new Map<string, Float32Array>();
function wavetable(name: string): Float32Array {
  const cached = tables.get(name);
  if (cached) return cached;
  const partials: Record<string, number[]> = {
    sine: [1],
    soft: [1, 0.28, 0.1, 0.04],
    saw: [1, 1 / 2, 1 / 3, 1 / 4, 1 / 5, 1 / 6, 1 / 7, 1 / 8, 1 / 9, 1 / 10],
    square: [1, 0, 1 / 3, 0, 1 / 5, 0, 1 / 7, 0, 1 / 9],
    organ: [1, 0.6, 0.3, 0.25, 0, 0.12, 0, 0.08],
    brass: [1, 0.7, 0.5, 0.35, 0.25, 0.15, 0.1, 0.06],
    keys: [1, 0.45, 0.08, 0.12, 0.03],
    bass: [1, 0.35, 0.12],
  };
  const amps = partials[name] ?? [1];
  const t = new Float32Array(TABLE_SIZE);
  let peak = 0;
  for (let i = 0; i < TABLE_SIZE; i++) {
    let v = 0;
    for (let h = 0; h < amps.length; h++) v += (amps[h] ?? 0) * Math.sin((2 * Math.PI * (h + 1) * i) / TABLE_SIZE);
    t[i] = v;
    peak = Math.max(peak, Math.abs(v));
  }
  for (let i = 0; i < TABLE_SIZE; i++) t[i] = (t[i] ?? 0) / peak;
  tables.set(name, t);
  return t;
}

const midiHz = (m: number) => 440 * 2 ** ((m - 69) / 12);

type Env = { a: number; d: number; s: number; r: number };

/** A note from a wavetable with an attack/decay/sustain/release envelope (peak 1), `length` samples plus release. */
function renderTone(sr: number, length: number, hz: number, table: Float32Array, env: Env): Float32Array {
  const attack = Math.max(1, Math.round(env.a * sr));
  const decay = Math.max(1, Math.round(env.d * sr));
  const release = Math.max(1, Math.round(env.r * sr));
  const out = new Float32Array(length + release);
  const inc = (hz * TABLE_SIZE) / sr;
  // Exponential moves towards the sustain level and towards silence: one multiply per sample.
  const decayK = Math.exp(-4 / decay);
  const relK = Math.exp(-5 / release);
  let phase = 0;
  let level = 0;
  for (let i = 0; i < out.length; i++) {
    if (i < attack) level = i / attack;
    else if (i < length) level = env.s + (level - env.s) * decayK;
    else level *= relK;
    out[i] = level * (table[phase & TABLE_MASK] as number);
    phase += inc;
    if (phase >= TABLE_SIZE) phase -= TABLE_SIZE;
  }
  return out;
}

/** A plucked string (Karplus-Strong), `length` samples with a short fade at the end. */
function renderPluck(sr: number, length: number, hz: number, noise: () => number, damping: number): Float32Array {
  const period = Math.max(2, Math.round(sr / hz));
  const buf = new Float32Array(period);
  for (let i = 0; i < period; i++) buf[i] = noise() * 2 - 1;
  const out = new Float32Array(length);
  const fadeFrom = length - Math.round(0.03 * sr);
  let idx = 0;
  for (let i = 0; i < length; i++) {
    const next = idx + 1 === period ? 0 : idx + 1;
    const v = buf[idx] ?? 0;
    buf[idx] = damping * 0.5 * (v + (buf[next] ?? 0));
    idx = next;
    out[i] = i > fadeFrom ? (v * (length - i)) / (length - fadeFrom) : v;
  }
  return out;
}

/** One drum kit per song: short one-shot samples mixed in at each hit. */
function drumKit(sr: number, r: () => number) {
  const noise = rng(Math.floor(r() * 2 ** 32));
  const make = (seconds: number, fn: (t: number, i: number) => number) => {
    const n = Math.round(seconds * sr);
    const s = new Float32Array(n);
    for (let i = 0; i < n; i++) s[i] = fn(i / sr, i);
    return s;
  };
  const kickHi = between(r, 100, 160);
  const kickLo = between(r, 40, 55);
  const kickDecay = between(r, 6, 12);
  let kp = 0;
  const kick = make(0.4, (t) => {
    const f = kickLo + (kickHi - kickLo) * Math.exp(-t * 30);
    kp += (2 * Math.PI * f) / sr;
    return Math.sin(kp) * Math.exp(-t * kickDecay) * (t < 0.002 ? t / 0.002 : 1);
  });
  const snareTone = between(r, 160, 240);
  let last = 0;
  const snare = make(0.3, (t) => {
    const n = noise() * 2 - 1;
    const hp = n - last * 0.6;
    last = n;
    return (0.75 * hp * Math.exp(-t * 18) + 0.45 * Math.sin(2 * Math.PI * snareTone * t) * Math.exp(-t * 30)) * 0.9;
  });
  const clap = make(0.25, (t) => {
    const n = noise() * 2 - 1;
    const bursts = t < 0.03 ? 0.6 + 0.4 * Math.sin(t * 2 * Math.PI * 100) : 1;
    return n * Math.exp(-t * 22) * bursts * 0.7;
  });
  let prev = 0;
  const hatNoise = () => {
    const n = noise() * 2 - 1;
    const hp = n - prev;
    prev = n;
    return hp * 0.5;
  };
  const hatDecay = between(r, 35, 70);
  const hat = make(0.08, (t) => hatNoise() * Math.exp(-t * hatDecay));
  const openHat = make(0.35, (t) => hatNoise() * Math.exp(-t * 9));
  const rim = make(0.06, (t) => Math.sin(2 * Math.PI * 1700 * t) * Math.exp(-t * 90) * 0.6);
  return { kick, snare, clap, hat, openHat, rim };
}

function mix(out: Float32Array, sample: Float32Array, at: number, gain: number): void {
  const end = Math.min(out.length, at + sample.length);
  for (let i = Math.max(0, at), j = i - at; i < end; i++, j++)
    out[i] = (out[i] as number) + gain * (sample[j] as number);
}

type Kit = ReturnType<typeof drumKit>;

/** One bar of a drum pattern (`light` for intros, `full` for choruses), accents on the beat. */
function playDrumBar(
  pattern: Drums,
  kind: "light" | "normal" | "full",
  kit: Kit,
  at: (beats: number) => number,
  length: number,
): Float32Array {
  const bar = new Float32Array(length);
  const light = kind === "light";
  const full = kind === "full";
  const hit = (s: Float32Array, b: number, g: number) => mix(bar, s, at(b), g * (Number.isInteger(b) ? 1 : 0.85));
  switch (pattern) {
    case "four":
      if (!light) for (let b = 0; b < 4; b++) hit(kit.kick, b, 0.9);
      if (!light) for (const b of [1, 3]) hit(kit.clap, b, 0.5);
      for (let b = 0; b < 4; b++) hit(kit.openHat, b + 0.5, 0.25);
      if (full) for (let s = 0; s < 16; s++) hit(kit.hat, s / 4, 0.18);
      break;
    case "boombap":
      if (!light) for (const b of [0, 1.75, 2.5]) hit(kit.kick, b, 0.95);
      if (!light) for (const b of [1, 3]) hit(kit.snare, b, 0.6);
      for (let e = 0; e < 8; e++) hit(kit.hat, e / 2, e % 2 ? 0.16 : 0.24);
      break;
    case "halftime":
      if (!light) for (const b of [0, 0.75, 2.5]) hit(kit.kick, b, 0.95);
      if (!light) hit(kit.snare, 2, 0.65);
      for (let s = 0; s < (full ? 16 : 8); s++) hit(kit.hat, (s * (full ? 1 : 2)) / 4, 0.16);
      break;
    case "pop":
      if (!light) for (const b of [0, 2, 2.5]) hit(kit.kick, b, 0.9);
      if (!light) for (const b of [1, 3]) hit(full ? kit.clap : kit.snare, b, 0.55);
      for (let e = 0; e < 8; e++) hit(kit.hat, e / 2, 0.2);
      break;
    case "train":
      if (!light) for (const b of [0, 2]) hit(kit.kick, b, 0.7);
      for (const b of [1, 3]) hit(kit.snare, b, light ? 0.2 : 0.38);
      for (let s = 0; s < 8; s++) hit(kit.rim, s / 2 + 0.25, 0.12);
      break;
    case "rock":
      if (!light) for (const b of [0, 1.5, 2, 2.5]) hit(kit.kick, b, 0.95);
      if (!light) for (const b of [1, 3]) hit(kit.snare, b, 0.75);
      for (let e = 0; e < 8; e++) hit(full ? kit.openHat : kit.hat, e / 2, full ? 0.14 : 0.22);
      break;
    case "lofi":
      if (!light) for (const b of [0, 2.5]) hit(kit.kick, b, 0.75);
      if (!light) hit(kit.rim, 1, 0.4);
      if (!light) hit(kit.snare, 3, 0.4);
      for (let e = 0; e < 8; e++) hit(kit.hat, e / 2, e % 2 ? 0.1 : 0.16);
      break;
  }
  return bar;
}

type Section = { name: "intro" | "verse" | "chorus" | "bridge" | "outro"; bars: number };

/** Verse, chorus, bridge...: a song form that fills `totalBars`. */
function arrangement(totalBars: number, r: () => number): Section[] {
  const out: Section[] = [];
  const intro = totalBars >= 16 ? 4 : 2;
  const outro = 2;
  out.push({ name: "intro", bars: intro });
  let left = totalBars - intro - outro;
  const verseLen = r() < 0.5 ? 8 : 4;
  const form: Section["name"][] = ["verse", "chorus", "verse", "chorus", "bridge", "chorus", "chorus"];
  for (const name of form) {
    if (left < 4) break;
    const want = name === "bridge" ? 4 : name === "verse" ? verseLen : 8;
    const bars = Math.min(want, left);
    out.push({ name, bars });
    left -= bars;
  }
  // A few bars left over lengthen the last section rather than making a stub of one.
  const last = out[out.length - 1];
  if (last && left > 0) last.bars += left;
  out.push({ name: "outro", bars: outro });
  return out;
}

/** The musical facts of a track, for tests and the curious. */
export type TrackPlan = {
  style: string;
  bpm: number;
  rootMidi: number;
  scale: ScaleName;
  progression: readonly number[];
  lead: Lead;
  drums: Drums;
  sections: Section[];
};

/** Decide tempo, key, scale, chords, instruments and form from the seed. */
export function planTrack(seed: number, seconds: number, genre?: string): TrackPlan & { r: () => number } {
  const r = rng(seed);
  const styleName = genre && genre in STYLES ? genre : pick(r, STYLE_NAMES);
  const style = STYLES[styleName] as Style;
  const bpm = Math.round(between(r, style.bpm[0], style.bpm[1]));
  const scale = pick(r, style.scales);
  const minorish = scale === "minor" || scale === "harmonicMinor" || scale === "dorian";
  const progression = pick(r, minorish ? PROGRESSIONS.minor : PROGRESSIONS.major);
  const rootMidi = 45 + Math.floor(r() * 12); // A2..G#3: the bass register
  const lead = pick(r, style.leads);
  const drums = pick(r, style.drums);
  const totalBars = Math.max(6, Math.ceil((seconds * bpm) / 60 / 4));
  return { style: styleName, bpm, rootMidi, scale, progression, lead, drums, sections: arrangement(totalBars, r), r };
}

/**
 * A complete little song unique to `seed` (mono, -1..1, `seconds` long): intro, verses, choruses, a bridge and
 * an outro, with drums, bass, chords and a melody in the style of `genre` (any of GENRES; a style is chosen from
 * the seed when it is missing or unknown).
 */
export function synthesizeTrack(seed: number, seconds: number, sampleRate: number, genre?: string): Float32Array {
  const sr = sampleRate;
  const plan = planTrack(seed, seconds, genre);
  const { r, bpm, rootMidi, progression } = plan;
  const style = STYLES[plan.style] as Style;
  const scale = SCALES[plan.scale];
  const n = Math.floor(seconds * sr);
  const beat = (60 / bpm) * sr;
  const swing = between(r, style.swing[0], style.swing[1]);
  const bassKind = pick(r, style.bass);
  const bassRhythm = pick(r, style.bassRhythm);
  const padKind = pick(r, style.pad);
  const noise = rng(seed ^ 0x5bd1e995);
  const kit = drumKit(sr, r);

  const drums = new Float32Array(n);
  const bass = new Float32Array(n);
  const pad = new Float32Array(n);
  const lead = new Float32Array(n);

  // Notes repeat (the same chord every few bars, the same phrase every chorus): each is rendered once.
  const rendered = new Map<string, Float32Array>();
  const note = (
    bus: Float32Array,
    start: number,
    beats: number,
    midi: number | number[],
    gain: number,
    voice: { table: string; env: Env } | { pluck: number },
    strum = 0,
  ) => {
    const length = Math.max(1, Math.round(beats * beat));
    const midis = typeof midi === "number" ? [midi] : midi;
    const key = `${"pluck" in voice ? `p${voice.pluck}` : `${voice.table}${voice.env.a}:${voice.env.d}:${voice.env.s}:${voice.env.r}`}|${midis.join(",")}|${length}|${strum}`;
    let buf = rendered.get(key);
    if (!buf) {
      // A chord is rendered into one buffer (each note `strum` samples after the previous): one mix per chord.
      const parts = midis.map((m) =>
        "pluck" in voice
          ? renderPluck(sr, length, midiHz(m), noise, voice.pluck)
          : renderTone(sr, length, midiHz(m), wavetable(voice.table), voice.env),
      );
      const first = parts[0] as Float32Array;
      buf = parts.length === 1 ? first : new Float32Array(first.length + strum * (parts.length - 1));
      if (parts.length > 1) for (const [k, part] of parts.entries()) mix(buf, part, k * strum, 1);
      rendered.set(key, buf);
    }
    mix(bus, buf, start, gain);
  };

  /** Sample index of a position in beats, with swing on the off-beat eighths. */
  const at = (beats: number) => {
    const e = beats * 2;
    const offBeat = Math.abs(e - Math.round(e)) < 1e-6 && Math.round(e) % 2 === 1;
    return Math.round((beats + (offBeat ? swing * 0.5 : 0)) * beat);
  };
  /** MIDI note of a scale degree (may go beyond one octave, or below 0) above `base`. */
  const degree = (d: number, base = rootMidi) => {
    const oct = Math.floor(d / 7);
    const idx = ((d % 7) + 7) % 7;
    return base + 12 * oct + (scale[idx] ?? 0);
  };
  const chordTones = (chord: number) => [chord, chord + 2, chord + 4];

  // The melody: two motifs (verse, chorus) of two bars each, on eighth notes; pitches walk the scale and land on
  // chord tones on the beat. Each is answered by a variation, making 4-bar phrases.
  const motif = (density: number, lift: number) => {
    const notes: { pos: number; len: number; deg: number }[] = [];
    let d = 7 + lift + Math.floor(r() * 3);
    for (let slot = 0; slot < 16; slot++) {
      const strong = slot % 4 === 0;
      if (r() > (strong ? density + 0.25 : density)) continue;
      d += pick(r, [-2, -1, -1, 0, 1, 1, 2, 3, -3]);
      d = Math.max(4 + lift, Math.min(13 + lift, d));
      notes.push({ pos: slot / 2, len: 0.5, deg: d });
    }
    if (notes.length === 0) notes.push({ pos: 0, len: 1, deg: 7 + lift });
    for (let i = 0; i < notes.length; i++) {
      const cur = notes[i] as (typeof notes)[number];
      cur.len = Math.min(2, (notes[i + 1]?.pos ?? 8) - cur.pos);
    }
    return notes;
  };
  const verseMotif = motif(between(r, 0.25, 0.4), 0);
  const chorusMotif = motif(between(r, 0.4, 0.6), 2);
  const answer = (m: typeof verseMotif) =>
    m.map((x, i) => (i >= m.length - 2 ? { ...x, deg: x.deg + pick(r, [-2, -1, 1, 2]) } : x));
  const verseAnswer = answer(verseMotif);
  const chorusAnswer = answer(chorusMotif);

  const leadVoice =
    plan.lead === "pluck"
      ? { pluck: 0.996 }
      : plan.lead === "bell" || plan.lead === "keys"
        ? { table: "keys", env: { a: 0.004, d: 0.35, s: 0.15, r: 0.25 } }
        : plan.lead === "soft"
          ? { table: "soft", env: { a: 0.04, d: 0.3, s: 0.6, r: 0.2 } }
          : { table: plan.lead, env: { a: 0.01, d: 0.2, s: 0.55, r: 0.12 } };
  const bassVoice =
    bassKind === "pick"
      ? { pluck: 0.997 }
      : {
          table: bassKind === "saw" ? "saw" : bassKind === "sub" ? "sine" : "bass",
          env: { a: 0.006, d: 0.25, s: 0.7, r: 0.06 },
        };
  const padTable = padKind === "saw" ? "saw" : padKind === "organ" ? "organ" : padKind === "keys" ? "keys" : "soft";

  let bar = 0;
  for (const section of plan.sections) {
    for (let sb = 0; sb < section.bars; sb++, bar++) {
      const barBeat = bar * 4;
      if (barBeat * beat >= n) break;
      const chord = progression[bar % progression.length] ?? 0;
      const full = section.name === "chorus";
      const quiet = section.name === "intro" || section.name === "outro" || section.name === "bridge";

      // Chords.
      const tones = chordTones(chord).map((d) => degree(d, rootMidi + 12));
      if (padKind === "strum") {
        const strums = full ? [0, 1, 1.5, 2, 3, 3.5] : [0, 1, 2, 3];
        for (const b of strums) note(pad, at(barBeat + b), 0.9, tones, 0.16, { pluck: 0.994 }, Math.round(0.012 * sr));
      } else if (padKind === "power") {
        const root = degree(chord, rootMidi + 12);
        const env = { a: 0.005, d: 0.15, s: 0.7, r: 0.05 };
        for (let e = 0; e < 8; e++) {
          if (quiet && e % 4 !== 0) continue;
          note(pad, at(barBeat + e / 2), 0.45, [root, root + 7, root + 12], 0.09, { table: "saw", env });
        }
      } else if (padKind === "keys") {
        const env = { a: 0.005, d: 0.6, s: 0.25, r: 0.3 };
        for (const h of full ? [0, 1.5, 2.5] : [0, 2])
          note(pad, at(barBeat + h), 1.4, tones, 0.07, { table: padTable, env });
      } else {
        const env = { a: 0.25, d: 1, s: 0.8, r: 0.4 };
        note(pad, at(barBeat), 4, tones, quiet ? 0.07 : 0.055, { table: padTable, env });
      }

      // Bass.
      if (section.name !== "intro") {
        const root = degree(chord, rootMidi - 12);
        const fifth = root + 7;
        const hits: [number, number, number][] =
          bassRhythm === "held"
            ? [[0, 3.5, root]]
            : bassRhythm === "offbeat"
              ? [0.5, 1.5, 2.5, 3.5].map((b) => [b, 0.45, root])
              : bassRhythm === "rootFifth"
                ? [
                    [0, 0.9, root],
                    [2, 0.9, fifth - 12],
                  ]
                : bassRhythm === "syncopated"
                  ? [
                      [0, 1.4, root],
                      [1.5, 0.4, root],
                      [2.75, 0.9, fifth - 12],
                    ]
                  : [0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5].map((b) => [b, 0.42, root]);
        for (const [b, len, m] of hits) note(bass, at(barBeat + b), len, m, 0.42, bassVoice);
      }

      // Melody: verses and choruses, and a quieter verse line over the bridge.
      if (section.name === "verse" || section.name === "chorus" || section.name === "bridge") {
        const phraseBar = sb % 4;
        const line = phraseBar < 2 ? (full ? chorusMotif : verseMotif) : full ? chorusAnswer : verseAnswer;
        const gain = section.name === "bridge" ? 0.13 : full ? 0.22 : 0.18;
        for (const x of line) {
          if (Math.floor(x.pos / 4) !== phraseBar % 2) continue;
          const beatInBar = x.pos % 4;
          let d = x.deg;
          // Land on a chord tone on the beat.
          if (Number.isInteger(beatInBar)) {
            let bestDist = 99;
            for (const c of chordTones(chord))
              for (const o of [-7, 0, 7, 14]) {
                const dist = Math.abs(c + o - x.deg);
                if (dist < bestDist) {
                  bestDist = dist;
                  d = c + o;
                }
              }
          }
          const voice = leadVoice;
          const beats = x.len * 0.92 + ("pluck" in voice ? 0.4 : 0);
          note(
            lead,
            at(barBeat + beatInBar),
            beats,
            degree(d, rootMidi + 12),
            "pluck" in voice ? gain * 1.6 : gain,
            voice,
          );
        }
      }

      // Drums: each kind of bar (intro, verse, chorus...) is played once into a buffer, then repeated.
      if (section.name === "bridge" && plan.drums !== "lofi") continue;
      const kind = section.name === "intro" ? "light" : full ? "full" : "normal";
      let drumBar = rendered.get(`drums:${kind}`);
      if (!drumBar) {
        drumBar = playDrumBar(plan.drums, kind, kit, at, Math.round(4 * beat + 0.4 * sr));
        rendered.set(`drums:${kind}`, drumBar);
      }
      mix(drums, drumBar, at(barBeat), 1);
    }
  }

  // Echo on the melody.
  if (style.delay > 0) {
    const d = Math.round(beat * 0.75);
    for (let i = d; i < n; i++) lead[i] = (lead[i] as number) + style.delay * (lead[i - d] as number);
  }
  // Mix, drive, an optional low-pass (lo-fi), fades, and the peak at -1 dBFS.
  const out = drums;
  const drive = 1 + style.drive * 3;
  const lpK = style.lowpass > 0 ? 1 - style.lowpass : 1;
  let lp = 0;
  let peak = 0;
  for (let i = 0; i < n; i++) {
    let v = ((drums[i] as number) * 0.8 + (bass[i] as number) + (pad[i] as number) + (lead[i] as number)) * drive;
    v = v / (1 + Math.abs(v)); // soft clip
    lp += lpK * (v - lp);
    out[i] = lp;
    if (lp > peak) peak = lp;
    else if (-lp > peak) peak = -lp;
  }
  const norm = peak > 0 ? 0.89 / peak : 1;
  for (let i = 0; i < n; i++) out[i] = (out[i] as number) * norm;
  const fadeIn = Math.min(n, Math.round(0.3 * sr));
  for (let i = 0; i < fadeIn; i++) out[i] = ((out[i] as number) * i) / fadeIn;
  const fadeOut = Math.round(Math.min(2.5 * sr, n / 4));
  for (let i = n - fadeOut; i < n; i++) out[i] = ((out[i] as number) * (n - i)) / fadeOut;
  return out;
}
