/**
 * An in-memory, typo-tolerant word index with top-k retrieval (issue 26, decision 024). Documents (songs, or
 * artists) hold normalised words in fields; a query's words are looked up in a trie of the vocabulary with a
 * bounded edit distance (optimal string alignment: substitutions, insertions, deletions, adjacent
 * transpositions), the last word also as a prefix. Document ids are handed out in rank order (most popular
 * first at build, later additions after), and every posting list is kept in id order, so a walk over the
 * postings meets the popular documents first and stops after collecting enough: the work per query is bounded
 * by what it needs, not by how many documents hold a common word.
 */

/** Cost of one query word's match, lower is better: exact 0, prefix completion 1, each edit 2. */
const COMPLETION = 1;
const PER_EDIT = 2;
/** A query reads at most this many words (the rest are ignored). */
export const MAX_QUERY_WORDS = 8;
/** Postings a single walk may read before it settles for what it found. */
const WALK_BUDGET = 60_000;
/**
 * Spellings kept per query word, cheapest and most common first: a short prefix with a typo ("xyz" with one
 * edit, then every completion) reaches thousands of words, and merging them all cost more than it finds.
 */
const MAX_SPELLINGS = 400;
/** Words a document keeps (a title and its credits hold a few dozen at most). */
const MAX_DOC_TERMS = 255;
/** Document ids a walk reads at a time. */
const BLOCK = 4096;
/** A group with this many times the rarest group's postings is checked per document, not marked per block. */
const DENSE_FACTOR = 16;
/** Expansions remembered (a few MB at most). */
const EXPANSIONS_KEPT = 20_000;

/** A query word's spellings in the vocabulary, cheapest first: term ids and their costs. */
export type Spellings = { terms: Int32Array; costs: Uint8Array };

/** A document to index: its key, its words per field (field 0 is the title), its popularity. */
export type IndexDoc = { key: string; fields: string[][]; popularity: number };

/** One hit: the document's key, the summed cost of its word matches, and what ranking reads. */
export type IndexHit = {
  key: string;
  cost: number;
  popularity: number;
  titleWords: number;
  wordsMatched: number;
  /** The query is the whole title, word for word. */
  exactTitle: boolean;
  /** Every query word is in the title and the title has no other word (typos allowed). */
  wholeTitle: boolean;
  /** The query's words appear in the document in the order typed ("midnight fire" is Midnight Fire, not Fire at Midnight). */
  inOrder: boolean;
};

/** How many edits a word of this length tolerates: none up to 2 letters, one up to 8, two beyond (a last word typed
 * partway: none up to 3 letters). */
export function maxEdits(length: number): number {
  if (length <= 2) return 0;
  if (length <= 8) return 1;
  return 2;
}

/** The words of a normalised text. */
export const wordsOf = (text: string): string[] => text.split(" ").filter(Boolean);

/** A copy of `array` with room for `size` entries. */
function grown<T extends Int32Array | Uint8Array | Float64Array>(array: T, size: number): T {
  const out = new (array.constructor as new (n: number) => T)(size);
  out.set(array);
  return out;
}

/** The first position at or after `from` whose id is at least `target` (galloping, then binary search). */
function seek(list: number[], from: number, target: number): number {
  if (from >= list.length || (list[from] as number) >= target) return from;
  let step = 1;
  let lo = from;
  let hi = from + 1;
  while (hi < list.length && (list[hi] as number) < target) {
    lo = hi;
    step *= 2;
    hi = from + step;
  }
  if (hi > list.length) hi = list.length;
  // list[lo] < target; the answer is in (lo, hi].
  while (lo + 1 < hi) {
    const mid = (lo + hi) >> 1;
    if ((list[mid] as number) < target) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** A vocabulary trie, posting lists in document order, and the documents' words. */
export class SearchIndex {
  // The vocabulary trie, flat: node i's letter, first child, next sibling and term id (-1: none). Node 0 is the
  // root. Typed arrays instead of an object per node: millions of nodes at 1,000,000 songs, traced by every GC.
  private nodeChar = new Int32Array(4096);
  private nodeChild = new Int32Array(4096).fill(-1);
  private nodeSibling = new Int32Array(4096).fill(-1);
  private nodeTerm = new Int32Array(4096).fill(-1);
  private nodes = 1;
  private terms: string[] = [];
  /** Word -> term id: most words of a new document are known, and a hash look-up beats walking the trie. */
  private termIds = new Map<string, number>();
  private postings: number[][] = [];
  private docKeys: string[] = [];
  /** Each document's term ids, and per term the field it came from (the lowest when in several). */
  // Per document, in flat typed arrays rather than an array per document: at 1,000,000 songs millions of small
  // objects cost hundreds of MB and made every garbage collection trace them.
  /** Each document's term ids are termPool[docStart[id] .. + docLength[id]], with the field of each in fieldPool. */
  private termPool = new Int32Array(4096);
  private fieldPool = new Uint8Array(4096);
  private poolUsed = 0;
  private docStart = new Int32Array(1024);
  private docLength = new Uint8Array(1024);
  private docPopularity = new Float64Array(1024);
  private docTitleWords = new Uint8Array(1024);
  private alive = new Uint8Array(1024);
  private ids = new Map<string, number>();
  private dead = 0;
  /**
   * Spellings of recently asked words: people type a query a letter at a time and share words ("love", "night"),
   * so most expansions repeat. Emptied when the vocabulary gains a word, so a cached set never misses one.
   */
  private expansions = new Map<string, Spellings>();
  private olderExpansions = new Map<string, Spellings>();
  /**
   * Per query word, each spelling's cost + 1 by term id (0: not a spelling), filled for one walk and wiped after:
   * checking a document's words is then an array read, not a hash look-up.
   */
  private costs: Uint8Array[] = [];
  /** A walk's block: which groups each document id of the block holds, one bit per group. */
  private mask = new Uint8Array(BLOCK);
  /** A walk's block: the rarest group's document ids in it. */
  private candidates: number[] = [];

  /** Documents indexed now. */
  get size(): number {
    return this.ids.size;
  }

  /**
   * Index documents, most popular first (the order walks meet them in), replacing what was there, yielding to the
   * event loop every `slice` documents so a large catalogue never holds it for long.
   */
  async buildInSlices(unordered: IndexDoc[], slice = 5000): Promise<void> {
    const docs = [...unordered].sort((a, b) => b.popularity - a.popularity);
    this.build([]);
    for (let i = 0; i < docs.length; i += slice) {
      for (const doc of docs.slice(i, i + slice)) this.add(doc);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  /** Index documents, most popular first (the order walks meet them in), replacing what was there. */
  build(unordered: IndexDoc[]): void {
    const docs = [...unordered].sort((a, b) => b.popularity - a.popularity);
    this.nodeChar = new Int32Array(4096);
    this.nodeChild = new Int32Array(4096).fill(-1);
    this.nodeSibling = new Int32Array(4096).fill(-1);
    this.nodeTerm = new Int32Array(4096).fill(-1);
    this.nodes = 1;
    this.terms = [];
    this.termIds = new Map();
    this.postings = [];
    this.docKeys = [];
    const room = Math.max(1024, docs.length + 1024);
    this.termPool = new Int32Array(Math.max(4096, room * 6));
    this.fieldPool = new Uint8Array(this.termPool.length);
    this.poolUsed = 0;
    this.docStart = new Int32Array(room);
    this.docLength = new Uint8Array(room);
    this.docPopularity = new Float64Array(room);
    this.docTitleWords = new Uint8Array(room);
    this.alive = new Uint8Array(room);
    this.ids = new Map();
    this.dead = 0;
    this.forgetExpansions();
    for (const doc of docs) this.add(doc);
  }

  /** Add a document, or replace it (the new version ranks after those indexed before, until a rebuild). */
  add(doc: IndexDoc): void {
    this.remove(doc.key);
    const id = this.docKeys.length;
    if (id >= this.alive.length) {
      const size = this.alive.length * 2;
      this.docStart = grown(this.docStart, size);
      this.docLength = grown(this.docLength, size);
      this.docPopularity = grown(this.docPopularity, size);
      this.docTitleWords = grown(this.docTitleWords, size);
      this.alive = grown(this.alive, size);
    }
    const fieldOf = new Map<number, number>();
    doc.fields.forEach((words, field) => {
      for (const word of words) {
        if (!word) continue;
        const term = this.termFor(word);
        const prior = fieldOf.get(term);
        if (prior === undefined || field < prior) fieldOf.set(term, field);
      }
    });
    const length = Math.min(MAX_DOC_TERMS, fieldOf.size);
    if (this.poolUsed + length > this.termPool.length) {
      const size = Math.max(this.termPool.length * 2, this.poolUsed + length);
      this.termPool = grown(this.termPool, size);
      this.fieldPool = grown(this.fieldPool, size);
    }
    let at = this.poolUsed;
    for (const [term, field] of fieldOf) {
      if (at === this.poolUsed + length) break;
      this.termPool[at] = term;
      this.fieldPool[at] = field;
      at++;
      (this.postings[term] as number[]).push(id);
    }
    this.docStart[id] = this.poolUsed;
    this.docLength[id] = length;
    this.poolUsed = at;
    this.docKeys.push(doc.key);
    this.docPopularity[id] = doc.popularity;
    this.docTitleWords[id] = Math.min(MAX_DOC_TERMS, new Set(doc.fields[0] ?? []).size);
    this.alive[id] = 1;
    this.ids.set(doc.key, id);
  }

  /** Remove a document (its postings are skipped from now on and dropped at the next compaction). */
  remove(key: string): void {
    const id = this.ids.get(key);
    if (id === undefined) return;
    this.alive[id] = 0;
    this.ids.delete(key);
    this.dead++;
  }

  /** Whether a document is indexed. */
  has(key: string): boolean {
    return this.ids.has(key);
  }

  /** Update a document's popularity for ranking (its place in walks changes at the next rebuild). */
  setPopularity(key: string, popularity: number): void {
    const id = this.ids.get(key);
    if (id !== undefined) this.docPopularity[id] = popularity;
  }

  /** Share of document ids that are removed or replaced: a rebuild is worth it past a third. */
  get deadShare(): number {
    return this.docKeys.length === 0 ? 0 : this.dead / this.docKeys.length;
  }

  /** The live documents, most popular first, as `build` takes them (for a compacting rebuild). */
  snapshot(): IndexDoc[] {
    const out: { doc: IndexDoc; order: number }[] = [];
    for (const [key, id] of this.ids) {
      const byField: string[][] = [];
      const start = this.docStart[id] as number;
      for (let i = start; i < start + (this.docLength[id] as number); i++) {
        const f = this.fieldPool[i] as number;
        if (!byField[f]) byField[f] = [];
        (byField[f] as string[]).push(this.terms[this.termPool[i] as number] as string);
      }
      for (let f = 0; f < byField.length; f++) byField[f] ??= [];
      out.push({ doc: { key, fields: byField, popularity: this.docPopularity[id] as number }, order: id });
    }
    return out.sort((a, b) => b.doc.popularity - a.doc.popularity || a.order - b.order).map((o) => o.doc);
  }

  private termFor(word: string): number {
    const known = this.termIds.get(word);
    if (known !== undefined) return known;
    let node = 0;
    for (let i = 0; i < word.length; i++) {
      const c = word.charCodeAt(i);
      let child = this.nodeChild[node] as number;
      while (child !== -1 && this.nodeChar[child] !== c) child = this.nodeSibling[child] as number;
      if (child === -1) {
        child = this.newNode(c);
        this.nodeSibling[child] = this.nodeChild[node] as number;
        this.nodeChild[node] = child;
      }
      node = child;
    }
    if ((this.nodeTerm[node] as number) < 0) {
      this.nodeTerm[node] = this.terms.length;
      this.terms.push(word);
      this.termIds.set(word, this.terms.length - 1);
      this.postings.push([]);
      this.forgetExpansions();
    }
    return this.nodeTerm[node] as number;
  }

  private newNode(c: number): number {
    if (this.nodes === this.nodeChar.length) {
      const size = this.nodes * 2;
      this.nodeChar = grown(this.nodeChar, size);
      this.nodeChild = grown(this.nodeChild, size).fill(-1, this.nodes);
      this.nodeSibling = grown(this.nodeSibling, size).fill(-1, this.nodes);
      this.nodeTerm = grown(this.nodeTerm, size).fill(-1, this.nodes);
    }
    const id = this.nodes++;
    this.nodeChar[id] = c;
    return id;
  }

  /**
   * The vocabulary's spellings of `word` with their cost: within its edit bound, and for the last word of a
   * query also every word that starts with such a spelling (a completion costs one more than the spelling).
   */
  expand(word: string, prefix: boolean): Spellings {
    const key = prefix ? `${word}*` : word;
    const known = this.expansions.get(key) ?? this.olderExpansions.get(key);
    if (known) return known;
    // Cheapest first, then the most common; past MAX_SPELLINGS the rarest of the dearest are dropped.
    const sorted = [...this.spell(word, prefix)]
      .sort(
        (a, b) =>
          a[1] - b[1] ||
          (this.postings[b[0]] as number[]).length - (this.postings[a[0]] as number[]).length ||
          a[0] - b[0],
      )
      .slice(0, MAX_SPELLINGS);
    const out = { terms: Int32Array.from(sorted, ([t]) => t), costs: Uint8Array.from(sorted, ([, c]) => c) };
    // Two generations, not oldest-first eviction (a Map's first key is found by skipping deleted entries).
    if (this.expansions.size >= EXPANSIONS_KEPT / 2) {
      this.olderExpansions = this.expansions;
      this.expansions = new Map();
    }
    this.expansions.set(key, out);
    return out;
  }

  private forgetExpansions(): void {
    if (this.expansions.size > 0) this.expansions = new Map();
    if (this.olderExpansions.size > 0) this.olderExpansions = new Map();
  }

  /** `expand` without the cache. */
  private spell(word: string, prefix: boolean): Map<number, number> {
    const out = new Map<number, number>();
    const n = word.length;
    if (n === 0) return out;
    const max = maxEdits(n);
    // Completions of a misspelt prefix of three letters are nearly anything: those only from four letters on.
    const maxPrefix = n <= 3 ? 0 : max;
    const w = new Int32Array(n);
    for (let i = 0; i < n; i++) w[i] = word.charCodeAt(i);
    // Cells past the edit bound all count as one more than it (so only a band of each row needs computing).
    const over = max + 1;
    // One row per trie depth, reused: the walk is depth-first, so a row is rewritten only after its subtree.
    const rows: Int32Array[] = [Int32Array.from({ length: n + 1 }, (_, i) => Math.min(i, over))];
    const record = (term: number, cost: number) => {
      const prior = out.get(term);
      if (prior === undefined || cost < prior) out.set(term, cost);
    };
    // Below a completed prefix, deeper than any word within the bound: every word is a completion at one cost.
    const { nodeChar, nodeChild, nodeSibling, nodeTerm } = this;
    const complete = (node: number, cost: number) => {
      const term = nodeTerm[node] as number;
      if (term >= 0) record(term, cost);
      for (let k = nodeChild[node] as number; k !== -1; k = nodeSibling[k] as number) complete(k, cost);
    };
    const visit = (node: number, prevCh: number, depth: number, best: number) => {
      const ch = nodeChar[node] as number;
      const prev = rows[depth - 1] as Int32Array;
      const prevPrev = depth >= 2 ? (rows[depth - 2] as Int32Array) : null;
      let row = rows[depth];
      if (!row) {
        row = new Int32Array(n + 1);
        rows[depth] = row;
      }
      row[0] = depth < over ? depth : over;
      let low = row[0] as number;
      // Only cells within `max` of the diagonal can be within the bound; the ones beside the band read as over.
      const from = depth - max > 1 ? depth - max : 1;
      const to = depth + max < n ? depth + max : n;
      if (from > 1) row[from - 1] = over;
      for (let i = from; i <= to; i++) {
        let v = (prev[i - 1] as number) + (w[i - 1] === ch ? 0 : 1);
        const del = (prev[i] as number) + 1;
        if (del < v) v = del;
        const ins = (row[i - 1] as number) + 1;
        if (ins < v) v = ins;
        if (prevPrev && i > 1 && w[i - 1] === prevCh && w[i - 2] === ch) {
          const swap = (prevPrev[i - 2] as number) + 1;
          if (swap < v) v = swap;
        }
        if (v > over) v = over;
        row[i] = v;
        if (v < low) low = v;
      }
      if (to < n) row[to + 1] = over;
      const whole = to === n ? (row[n] as number) : over;
      const bestPrefix = whole < best ? whole : best;
      const completing = prefix && bestPrefix <= maxPrefix;
      const term = nodeTerm[node] as number;
      if (term >= 0) {
        // The word as typed (within its edits), or, for the last word, a completion of a spelling of it.
        let cost = whole <= max ? whole * PER_EDIT : Infinity;
        if (completing) cost = Math.min(cost, bestPrefix * PER_EDIT + COMPLETION);
        if (cost !== Infinity) record(term, cost);
      }
      const first = nodeChild[node] as number;
      if (first === -1) return;
      if (completing && depth >= n + max) {
        const cost = bestPrefix * PER_EDIT + COMPLETION;
        for (let k = first; k !== -1; k = nodeSibling[k] as number) complete(k, cost);
        return;
      }
      if (low > max && !completing) return;
      for (let k = first; k !== -1; k = nodeSibling[k] as number) visit(k, ch, depth + 1, bestPrefix);
    };
    for (let k = nodeChild[0] as number; k !== -1; k = nodeSibling[k] as number) visit(k, -1, 1, Infinity);
    return out;
  }

  /**
   * Documents holding a spelling (costing at most `bound`) of every group (one group per query word, its cost
   * table from `fill`), popular first, until `want` more are in `found` or the budget is spent. Document ids are
   * read a block at a time: every group's postings in the block set its bit in a mask (no merge heap), the
   * documents with every bit are checked in id order, and a block the rarest group has nothing in is skipped.
   */
  private walk(
    groups: Spellings[],
    tables: Uint8Array[],
    bound: number,
    want: number,
    found: Map<number, IndexHit>,
  ): void {
    if (groups.length === 0) return;
    const lists: number[][][] = [];
    const sizes: number[] = [];
    for (const { terms, costs } of groups) {
      const own: number[][] = [];
      let size = 0;
      for (let i = 0; i < terms.length && (costs[i] as number) <= bound; i++) {
        const list = this.postings[terms[i] as number] as number[];
        if (list.length === 0) continue;
        own.push(list);
        size += list.length;
      }
      if (size === 0) return;
      lists.push(own);
      sizes.push(size);
    }
    // The rarest group drives; groups far denser than it are left to `match` (marking them costs more than it saves).
    const order = sizes.map((_, g) => g).sort((a, b) => (sizes[a] as number) - (sizes[b] as number));
    const driverSize = sizes[order[0] as number] as number;
    const marked = order.filter((g) => (sizes[g] as number) <= driverSize * DENSE_FACTOR);
    const markedLists = marked.map((g) => lists[g] as number[][]);
    const pos = markedLists.map((ls) => new Int32Array(ls.length));
    // Bits of the groups other than the driver: a driver's posting with all of them set is a candidate.
    const others = (1 << (marked.length - 1)) - 1;
    const mask = this.mask;
    const candidates = this.candidates;
    const driver = markedLists[0] as number[][];
    const driverPos = pos[0] as Int32Array;
    const end = this.docKeys.length;
    let read = 0;
    let added = 0;
    while (added < want && read < WALK_BUDGET) {
      // The block of the driver's next posting (blocks it has nothing in are skipped).
      let next = end;
      for (let l = 0; l < driver.length; l++) {
        const list = driver[l] as number[];
        const p = driverPos[l] as number;
        if (p < list.length && (list[p] as number) < next) next = list[p] as number;
      }
      if (next >= end) break;
      const lo = next - (next % BLOCK);
      const hi = lo + BLOCK;
      candidates.length = 0;
      for (let l = 0; l < driver.length; l++) {
        const list = driver[l] as number[];
        let p = driverPos[l] as number;
        while (p < list.length && (list[p] as number) < hi) candidates.push(list[p++] as number);
        read += p - (driverPos[l] as number);
        driverPos[l] = p;
      }
      if (driver.length > 1) candidates.sort((a, b) => a - b);
      for (let m = 1; m < markedLists.length; m++) {
        const bit = 1 << (m - 1);
        const ls = markedLists[m] as number[][];
        const ps = pos[m] as Int32Array;
        for (let l = 0; l < ls.length; l++) {
          const list = ls[l] as number[];
          let p = seek(list, ps[l] as number, lo);
          while (p < list.length && (list[p] as number) < hi) {
            const at = (list[p++] as number) - lo;
            mask[at] = (mask[at] as number) | bit;
          }
          ps[l] = p;
        }
      }
      let last = -1;
      for (let k = 0; k < candidates.length && added < want; k++) {
        const id = candidates[k] as number;
        if (id === last) continue;
        last = id;
        if (mask[id - lo] !== others || !this.alive[id] || found.has(id)) continue;
        const hit = this.match(id, tables, bound);
        if (hit) {
          found.set(id, hit);
          added++;
        }
      }
      if (others !== 0) mask.fill(0);
    }
  }

  /** Scratch cost tables for `groups` (each spelling's cost + 1 by term id), sized to the vocabulary. */
  private fill(groups: Spellings[]): Uint8Array[] {
    return groups.map(({ terms, costs }, g) => {
      let table = this.costs[g];
      if (!table || table.length < this.terms.length) {
        table = new Uint8Array(Math.max(1024, this.terms.length * 2));
        this.costs[g] = table;
      }
      for (let i = 0; i < terms.length; i++) table[terms[i] as number] = (costs[i] as number) + 1;
      return table;
    });
  }

  /** Reset what `fill` wrote. */
  private wipe(groups: Spellings[], tables: Uint8Array[]): void {
    groups.forEach(({ terms }, g) => {
      const table = tables[g] as Uint8Array;
      for (let i = 0; i < terms.length; i++) table[terms[i] as number] = 0;
    });
  }

  /** A document's match of every group (cost tables from `fill`, up to `bound`), or null when one has none in it. */
  private match(id: number, costs: Uint8Array[], bound: number): IndexHit | null {
    const terms = this.termPool;
    const fields = this.fieldPool;
    const start = this.docStart[id] as number;
    const end = start + (this.docLength[id] as number);
    let cost = 0;
    let titleWords = 0;
    let inOrder = true;
    let last = -1;
    for (let g = 0; g < costs.length; g++) {
      const table = costs[g] as Uint8Array;
      let best = 255;
      let inTitle = false;
      let at = -1;
      for (let i = start; i < end; i++) {
        const c = table[terms[i] as number] as number;
        if (c !== 0 && c <= bound + 1 && (c < best || (c === best && fields[i] === 0))) {
          best = c;
          inTitle = fields[i] === 0;
          at = i;
        }
      }
      if (best === 255) return null;
      cost += best - 1;
      if (inTitle) titleWords++;
      // A document keeps its words in the order they first appear (title first): positions show the order.
      if (at <= last) inOrder = false;
      last = at;
    }
    return {
      key: this.docKeys[id] as string,
      cost,
      popularity: this.docPopularity[id] as number,
      titleWords,
      wordsMatched: costs.length,
      exactTitle: cost === 0 && titleWords === costs.length && this.docTitleWords[id] === costs.length,
      wholeTitle: titleWords === costs.length && this.docTitleWords[id] === costs.length,
      inOrder,
    };
  }

  /**
   * The best `want` documents for a normalised query: every word must match (exact and prefix spellings are
   * collected first, then typos); when no document holds them all, documents holding some, most words first.
   * Hits come unsorted beyond the bounded collection; `rank` orders them.
   */
  search(query: string, want: number): IndexHit[] {
    const words = wordsOf(query).slice(0, MAX_QUERY_WORDS);
    if (words.length === 0) return [];
    const lastIsPrefix = !query.endsWith(" ");
    const groups = words.map((w, i) => this.expand(w, lastIsPrefix && i === words.length - 1));
    const found = new Map<number, IndexHit>();
    const tables = this.fill(groups);
    try {
      // Words as typed first, then completions of the last, then typos: a popular near miss never crowds out
      // what was typed right.
      for (const bound of [0, COMPLETION, Infinity]) {
        if (found.size >= want) break;
        this.walk(groups, tables, bound, want - found.size, found);
      }
      if (found.size > 0 || groups.length === 1) return [...found.values()];
      // Nobody holds every word: each word of 3 letters or more on its own (short ones match too much alone),
      // ranked by how many words a document holds, at least half of them.
      const partial = new Map<number, IndexHit>();
      for (const [i, g] of groups.entries()) {
        if ((words[i] as string).length < 3) continue;
        const alone = new Map<number, IndexHit>();
        this.walk([g], [tables[i] as Uint8Array], Infinity, want, alone);
        for (const [id, hit] of alone) {
          const prior = partial.get(id);
          if (prior) {
            prior.cost += hit.cost;
            prior.wordsMatched++;
            prior.titleWords += hit.titleWords;
          } else partial.set(id, { ...hit, wordsMatched: 1, exactTitle: false, wholeTitle: false, inOrder: false });
        }
      }
      return [...partial.values()].filter((hit) => hit.wordsMatched * 2 >= words.length);
    } finally {
      this.wipe(groups, tables);
    }
  }

  /** The spellings a word has in the vocabulary (for tests and the query log). */
  spellings(word: string, prefix: boolean): string[] {
    return [...this.expand(word, prefix).terms].map((t) => this.terms[t] as string);
  }
}

/**
 * Order hits: most words matched, the exact title, lowest cost, the whole title, the words in the order typed, most
 * words in the title, then popularity.
 */
export function compareHits(a: IndexHit, b: IndexHit): number {
  return (
    b.wordsMatched - a.wordsMatched ||
    Number(b.exactTitle) - Number(a.exactTitle) ||
    a.cost - b.cost ||
    Number(b.wholeTitle) - Number(a.wholeTitle) ||
    Number(b.inOrder) - Number(a.inOrder) ||
    b.titleWords - a.titleWords ||
    b.popularity - a.popularity ||
    (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)
  );
}
