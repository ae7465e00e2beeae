// Titles and artist names for the search benchmark's catalogue, shaped like unreleased-song trackers: titles of
// one to five words where a few words ("love", "night", "the") recur in many titles and a long tail of rare and
// made-up words makes most titles distinctive; leak suffixes ("(Demo)", "[V2]"); "(feat. X)"; artist names that
// look like people's and stage names, some with accents ("Zoë Kane", "Sølveig", "Mötley Rás").
import { drawFrom, inventedWord, zipf } from "./api-names.js";
import type { Random } from "./random.js";

// Most frequent first: the generator draws them with a Zipf skew.
const NOUNS = (
  "love night heart baby girl fire dream light rain summer money city home soul moon star sky time life world " +
  "way dance body mind eyes lips hands blood tears smile kiss touch name story song music rhythm beat bass " +
  "radio phone signal ocean river sea wave storm thunder rainbow sunset sunrise midnight morning evening winter " +
  "spring autumn highway road street car ride wings bird wolf tiger lion snake rose flower garden desert island " +
  "mountain valley fever sugar honey candy cherry diamond crystal silver velvet silk glass mirror window door " +
  "house room bed party club drink smoke pills echo ghost shadow angel devil heaven paradise memory secret truth " +
  "promise letter message empire kingdom throne crown king queen prince princess hero villain legend icon " +
  "rockstar satellite rocket planet galaxy universe orbit horizon frontier runaway getaway hideaway daydream " +
  "nightmare lullaby serenade anthem ballad symphony melody harmony chorus engine motel casino neon venom " +
  "voodoo karma halo chrome marble tequila champagne lemonade cigarettes perfume lipstick jacket sneakers denim " +
  "bandana rosary prayer church sermon gospel sinner saint martyr outlaw bandit pirate cowboy sheriff coyote " +
  "raven falcon panther cobra scorpion dragon phoenix unicorn butterfly moth firefly wildfire avalanche " +
  "earthquake hurricane tornado tsunami volcano glacier lagoon harbor lighthouse skyline rooftop basement " +
  "hallway elevator subway airport runway passport postcard polaroid cassette vinyl stereo jukebox arcade " +
  "carousel circus cathedral palace mansion penthouse bungalow trailer"
).split(" ");
const ADJECTIVES = (
  "lonely golden broken wild young cold dark sweet blue crazy last first slow late lost free high low new old " +
  "real bad good hot bright electric cosmic lunar solar silent violent sacred secret faded frozen burning " +
  "falling rising hollow heavy empty endless restless reckless careless fearless heartless nameless weightless " +
  "midnight neon velvet crimson scarlet purple emerald silver plastic paper liquid toxic royal savage tender " +
  "gentle brutal bitter sober drunk numb vivid"
).split(" ");
const VERBS = (
  "love miss hold call need want feel leave chase run fall lose burn break save kill keep take give tell show " +
  "find fight drive ride dance pray bleed breathe dream shine fade wake hide follow forget remember believe " +
  "trust touch kiss hurt heal stay"
).split(" ");
const ADVERBS = "tonight again forever now slowly away back home alone tomorrow today anymore together".split(" ");
const PREPOSITIONS = "through into under over above below beyond across".split(" ");
const PRONOUNS = "you me her him them us".split(" ");
// Titles and title words with accents, as trackers spell them.
const ACCENTED = (
  "Déjà Vu|Café|Señorita|Mañana|Fiancée|Rosé|Crème Brûlée|Naïve|Über|Résumé|Piñata|Cliché|Soirée|Corazón|" +
  "Canción|Niño|Sueño|Adiós|Élan|Façade|Protégé|Bête Noire|Hôtel|Mélancolie|Noël|Jalapeño|Pequeño|Fútbol|" +
  "Ménage|Éclair|Sérénade|Rêverie|Café Noir|Ça Va|Olé|Año Nuevo|Götterdämmerung|Smörgåsbord|Fjärran|Øresund"
).split("|");
const SUFFIXES = ["(Demo)", "(Remix)", "(Snippet)", "[V2]", "(Original Mix)", "(Leak)", "Pt. 2", "(Live)"];

const FIRST_NAMES = (
  "james mary john lisa mike anna chris sara david emma alex nina ryan zoe kevin maya jason lily tyler chloe " +
  "marcus ava andre mia jordan leah derek ella travis ivy dante ruby malik nora omar iris felix luna hugo jade " +
  "oscar vera milo cleo theo nadia enzo rosa kai elena leo sofia ezra hana jonah tessa isaac yara cole freya " +
  "reid dahlia sean amara drew celine blake noor miles esme"
).split(" ");
const ACCENTED_FIRST_NAMES = (
  "zoë chloé renée josé andré anaïs léa noémie jürgen björn søren åsa ólafur maëlle inès raphaël héloïse mónica " +
  "sebastián joão thaís rené ramón ángel lucía élodie françois zoé"
).split(" ");
const LAST_NAMES = (
  "smith jones brown lee walker young king wright hill scott green baker adams nelson carter mitchell roberts " +
  "turner phillips campbell parker evans edwards collins stewart morris rogers reed cook morgan bell murphy " +
  "bailey rivera cooper richardson cox howard ward torres peterson gray ramirez watson brooks kelly sanders " +
  "price bennett wood barnes ross henderson coleman jenkins perry powell long patterson hughes flores " +
  "washington butler simmons foster gonzales bryant alexander russell griffin diaz hayes kane"
).split(" ");
const ACCENTED_LAST_NAMES = (
  "müller dubois sølberg østergaard núñez peña gonçalves lópez márquez åberg björklund gómez fernández " +
  "schröder lefèvre mørk jäger brontë"
).split(" ");
const PREFIXES = ["Lil", "Young", "DJ", "MC", "Big", "Saint", "King", "Baby", "Yung"];
const ACCENT_OF: Record<string, string[]> = {
  a: ["á", "à", "ä", "å"],
  e: ["é", "è", "ë"],
  i: ["í", "ï"],
  o: ["ó", "ö", "ø"],
  u: ["ú", "ü"],
  n: ["ñ"],
  c: ["ç"],
};

const cap = (w: string) => (w ? `${w[0]?.toUpperCase()}${w.slice(1)}` : w);
const pick = <T>(rand: Random, list: readonly T[]): T => list[rand.int(list.length)] as T;

/** A made-up word with one letter accented ("kavro" -> "kavrö"), as in "Björk" or "Sigur Rós". */
function accented(rand: Random, word: string): string {
  const spots = [...word].map((c, i) => [c, i] as const).filter(([c]) => ACCENT_OF[c]);
  const spot = spots.length ? spots[rand.int(spots.length)] : undefined;
  if (!spot) return word;
  const [c, i] = spot;
  return word.slice(0, i) + pick(rand, ACCENT_OF[c] ?? [c]) + word.slice(i + 1);
}

/** The vocabularies titles are drawn from; the made-up tail grows with the catalogue so titles stay varied. */
export type TitleVocabulary = {
  nouns: string[];
  nounCum: Float64Array;
  adjectives: string[];
  adjectiveCum: Float64Array;
  verbs: string[];
  verbCum: Float64Array;
  invented: string[];
};

/** Word lists for a catalogue of `songs` songs. */
export function titleVocabulary(rand: Random, songs: number): TitleVocabulary {
  const invented = new Set<string>();
  const tail = Math.round(300 + songs / 30);
  while (invented.size < tail) invented.add(inventedWord(rand));
  // A mild skew: "love" ends up in about 6% of titles and "night" in 4%, the rarest nouns in a few per thousand.
  return {
    nouns: NOUNS,
    nounCum: zipf(NOUNS.length, 0.6),
    adjectives: ADJECTIVES,
    adjectiveCum: zipf(ADJECTIVES.length, 0.7),
    verbs: VERBS,
    verbCum: zipf(VERBS.length, 0.7),
    invented: [...invented],
  };
}

/** A title without suffix or feature: "Lonely Nights", "Run Through the Fire", "Kavro", "Déjà Vu". */
function baseTitle(rand: Random, v: TitleVocabulary): string {
  const noun = () => cap(v.nouns[drawFrom(v.nounCum, rand.next())] ?? "love");
  // Two nouns side by side are never the same one ("Heart Heart").
  const nouns = () => {
    const a = noun();
    let b = noun();
    while (b === a) b = noun();
    return [a, b] as const;
  };
  const adj = () => cap(v.adjectives[drawFrom(v.adjectiveCum, rand.next())] ?? "lonely");
  const verb = () => cap(v.verbs[drawFrom(v.verbCum, rand.next())] ?? "hold");
  const made = () => cap(pick(rand, v.invented));
  const roll = rand.next();
  if (roll < 0.08) return noun();
  if (roll < 0.22) return `${adj()} ${noun()}`;
  if (roll < 0.32) return nouns().join(" ");
  if (roll < 0.36) return `The ${noun()}`;
  if (roll < 0.42) return `${verb()} Me ${cap(pick(rand, ADVERBS))}`;
  if (roll < 0.47) return nouns().join(" of the ");
  if (roll < 0.52) return `I ${verb()} ${cap(pick(rand, PRONOUNS))}`;
  if (roll < 0.57) return `${verb()} ${cap(pick(rand, PREPOSITIONS))} the ${noun()}`;
  if (roll < 0.63) return `${adj()} ${nouns().join(" ")}`;
  if (roll < 0.66) return `Don't ${verb()} Me ${cap(pick(rand, ADVERBS))}`;
  if (roll < 0.74) return made();
  if (roll < 0.81) return `${made()} ${noun()}`;
  if (roll < 0.85) return `${adj()} ${made()}`;
  if (roll < 0.88) return `${made()} ${made()}`;
  if (roll < 0.91) return `${verb()} It Like ${made()}`;
  if (roll < 0.93) return pick(rand, ACCENTED);
  if (roll < 0.97) return `${adj()} ${pick(rand, ACCENTED)}`;
  return `${pick(rand, ACCENTED)} ${noun()}`;
}

/** A song title: a base title, now and then a leak suffix, and "(feat. X)" when `feature` is given. */
export function songTitle(rand: Random, v: TitleVocabulary, feature?: string): string {
  let title = baseTitle(rand, v);
  if (rand.next() < 0.1) title = `${title} ${pick(rand, SUFFIXES)}`;
  return feature ? `${title} (feat. ${feature})` : title;
}

/**
 * An artist name: "Maya Brooks", "Zoë Müller", "Lil Kavro", "Zenthi", "Björka", "Velo Rás", "The Kavro Wolves";
 * with `plain`, one without accents.
 */
export function artistName(rand: Random, v: TitleVocabulary, plain = false): string {
  for (;;) {
    const name = anyArtistName(rand, v);
    if (!plain || /^[\x20-\x7e]*$/.test(name)) return name;
  }
}

function anyArtistName(rand: Random, v: TitleVocabulary): string {
  const roll = rand.next();
  if (roll < 0.36) {
    // About one in eight of these carries an accent, in the first name, the last or both.
    const first = rand.next() < 0.08 ? pick(rand, ACCENTED_FIRST_NAMES) : pick(rand, FIRST_NAMES);
    const last = rand.next() < 0.06 ? pick(rand, ACCENTED_LAST_NAMES) : pick(rand, LAST_NAMES);
    return `${cap(first)} ${cap(last)}`;
  }
  if (roll < 0.52) return `${pick(rand, PREFIXES)} ${cap(inventedWord(rand))}`;
  if (roll < 0.78) {
    const w = inventedWord(rand);
    return cap(rand.next() < 0.15 ? accented(rand, w) : w);
  }
  if (roll < 0.9) {
    const [a, b] = [inventedWord(rand), inventedWord(rand).slice(0, 5)];
    return rand.next() < 0.35 ? `${cap(a)} ${cap(accented(rand, b))}` : `${cap(a)} ${cap(b)}`;
  }
  if (roll < 0.95) return cap(accented(rand, inventedWord(rand)));
  return `The ${cap(inventedWord(rand))} ${cap(v.nouns[rand.int(80)] ?? "wolf")}s`;
}
