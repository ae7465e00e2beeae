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
const MAX_QUERY_WORDS = 8;
/** Postings a single walk may read before it settles for what it found. */
const WALK_BUDGET = 60_000;
/**
 * Spellings kept per query word, cheapest and most common first: a short prefix with a typo ("xyz" with one
 * edit, then every completion) reaches thousands of words, and merging them all cost more than it finds.
 */
const MAX_SPELLINGS = 400;

type TrieNode = { next: Map<number, TrieNode> | null; term: number };

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

/** A min-heap of [docId, list index] pairs for merging posting lists in id order. */
class MergeHeap {
  private ids: number[] = [];
  private lists: number[] = [];
  get size(): number {
    return this.ids.length;
  }
  push(id: number, list: number): void {
    this.ids.push(id);
    this.lists.push(list);
    let i = this.ids.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if ((this.ids[p] as number) <= id) break;
      this.swap(i, p);
      i = p;
    }
  }
  /** The smallest entry's id and list; call only when not empty. */
  pop(): [number, number] {
    const top: [number, number] = [this.ids[0] as number, this.lists[0] as number];
    const lastId = this.ids.pop() as number;
    const lastList = this.lists.pop() as number;
    if (this.ids.length > 0) {
      this.ids[0] = lastId;
      this.lists[0] = lastList;
      let i = 0;
      const n = this.ids.length;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < n && (this.ids[l] as number) < (this.ids[m] as number)) m = l;
        if (r < n && (this.ids[r] as number) < (this.ids[m] as number)) m = r;
        if (m === i) break;
        this.swap(i, m);
        i = m;
      }
    }
    return top;
  }
  private swap(a: number, b: number): void {
    const id = this.ids[a] as number;
    this.ids[a] = this.ids[b] as number;
    this.ids[b] = id;
    const list = this.lists[a] as number;
    this.lists[a] = this.lists[b] as number;
    this.lists[b] = list;
  }
}

/** A vocabulary trie, posting lists in document order, and the documents' words. */
export class SearchIndex {
  private root: TrieNode = { next: null, term: -1 };
  private terms: string[] = [];
  /** Word -> term id: most words of a new document are known, and a hash look-up beats walking the trie. */
  private termIds = new Map<string, number>();
  private postings: number[][] = [];
  private docKeys: string[] = [];
  /** Each document's term ids, and per term the field it came from (the lowest when in several). */
  private docTerms: Int32Array[] = [];
  private docFields: Uint8Array[] = [];
  private docPopularity: number[] = [];
  private docTitleWords: number[] = [];
  private alive: Uint8Array = new Uint8Array(1024);
  private ids = new Map<string, number>();
  private dead = 0;

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
    this.root = { next: null, term: -1 };
    this.terms = [];
    this.termIds = new Map();
    this.postings = [];
    this.docKeys = [];
    this.docTerms = [];
    this.docFields = [];
    this.docPopularity = [];
    this.docTitleWords = [];
    this.alive = new Uint8Array(Math.max(1024, docs.length + 1024));
    this.ids = new Map();
    this.dead = 0;
    for (const doc of docs) this.add(doc);
  }

  /** Add a document, or replace it (the new version ranks after those indexed before, until a rebuild). */
  add(doc: IndexDoc): void {
    this.remove(doc.key);
    const id = this.docKeys.length;
    if (id >= this.alive.length) {
      const grown = new Uint8Array(this.alive.length * 2);
      grown.set(this.alive);
      this.alive = grown;
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
    const terms = new Int32Array(fieldOf.size);
    const fields = new Uint8Array(fieldOf.size);
    let i = 0;
    for (const [term, field] of fieldOf) {
      terms[i] = term;
      fields[i] = field;
      i++;
      (this.postings[term] as number[]).push(id);
    }
    this.docKeys.push(doc.key);
    this.docTerms.push(terms);
    this.docFields.push(fields);
    this.docPopularity.push(doc.popularity);
    this.docTitleWords.push(new Set(doc.fields[0] ?? []).size);
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
      const terms = this.docTerms[id] as Int32Array;
      const fields = this.docFields[id] as Uint8Array;
      const byField: string[][] = [];
      terms.forEach((t, i) => {
        const f = fields[i] as number;
        if (!byField[f]) byField[f] = [];
        (byField[f] as string[]).push(this.terms[t] as string);
      });
      for (let f = 0; f < byField.length; f++) byField[f] ??= [];
      out.push({ doc: { key, fields: byField, popularity: this.docPopularity[id] as number }, order: id });
    }
    return out.sort((a, b) => b.doc.popularity - a.doc.popularity || a.order - b.order).map((o) => o.doc);
  }

  private termFor(word: string): number {
    const known = this.termIds.get(word);
    if (known !== undefined) return known;
    let node = this.root;
    for (let i = 0; i < word.length; i++) {
      const c = word.charCodeAt(i);
      node.next ??= new Map();
      let child = node.next.get(c);
      if (!child) {
        child = { next: null, term: -1 };
        node.next.set(c, child);
      }
      node = child;
    }
    if (node.term < 0) {
      node.term = this.terms.length;
      this.terms.push(word);
      this.termIds.set(word, node.term);
      this.postings.push([]);
    }
    return node.term;
  }

  /**
   * The vocabulary's spellings of `word` with their cost: within its edit bound, and for the last word of a
   * query also every word that starts with such a spelling (a completion costs one more than the spelling).
   */
  expand(word: string, prefix: boolean): Map<number, number> {
    const out = new Map<number, number>();
    const n = word.length;
    if (n === 0) return out;
    const max = maxEdits(n);
    // Completions of a misspelt prefix of three letters are nearly anything: those only from four letters on.
    const maxPrefix = n <= 3 ? 0 : max;
    const w = new Int32Array(n);
    for (let i = 0; i < n; i++) w[i] = word.charCodeAt(i);
    // One row per trie depth, reused: the walk is depth-first, so a row is rewritten only after its subtree.
    const rows: Int32Array[] = [Int32Array.from({ length: n + 1 }, (_, i) => i)];
    const visit = (node: TrieNode, ch: number, prevCh: number, depth: number, best: number) => {
      const prev = rows[depth - 1] as Int32Array;
      const prevPrev = depth >= 2 ? (rows[depth - 2] as Int32Array) : null;
      let row = rows[depth];
      if (!row) {
        row = new Int32Array(n + 1);
        rows[depth] = row;
      }
      row[0] = (prev[0] as number) + 1;
      let low = row[0] as number;
      for (let i = 1; i <= n; i++) {
        const sub = (prev[i - 1] as number) + (w[i - 1] === ch ? 0 : 1);
        let v = Math.min((prev[i] as number) + 1, (row[i - 1] as number) + 1, sub);
        if (prevPrev && i > 1 && w[i - 1] === prevCh && w[i - 2] === ch)
          v = Math.min(v, (prevPrev[i - 2] as number) + 1);
        row[i] = v;
        if (v < low) low = v;
      }
      const whole = row[n] as number;
      const bestPrefix = Math.min(best, whole);
      if (node.term >= 0) {
        // The word as typed (within its edits), or, for the last word, a completion of a spelling of it.
        let cost = whole <= max ? whole * PER_EDIT : Infinity;
        if (prefix && bestPrefix <= maxPrefix) cost = Math.min(cost, bestPrefix * PER_EDIT + COMPLETION);
        if (cost !== Infinity) {
          const prior = out.get(node.term);
          if (prior === undefined || cost < prior) out.set(node.term, cost);
        }
      }
      if (!node.next) return;
      if (low > max && !(prefix && bestPrefix <= maxPrefix)) return;
      for (const [c, child] of node.next) visit(child, c, ch, depth + 1, bestPrefix);
    };
    if (this.root.next) for (const [c, child] of this.root.next) visit(child, c, -1, 1, Infinity);
    if (out.size > MAX_SPELLINGS) {
      const kept = [...out]
        .sort(
          (a, b) => a[1] - b[1] || (this.postings[b[0]] as number[]).length - (this.postings[a[0]] as number[]).length,
        )
        .slice(0, MAX_SPELLINGS);
      return new Map(kept);
    }
    return out;
  }

  /**
   * Documents holding a spelling of every group (one group per query word), popular first: the postings of the
   * group with the fewest are merged in document order and each document's own words checked against the other
   * groups, until `want` more are in `found` or the budget is spent.
   */
  private walk(groups: Map<number, number>[], want: number, found: Map<number, IndexHit>): void {
    if (groups.length === 0 || groups.some((g) => g.size === 0)) return;
    let driver = 0;
    let driverSize = Infinity;
    groups.forEach((g, i) => {
      let size = 0;
      for (const term of g.keys()) size += (this.postings[term] as number[]).length;
      if (size < driverSize) {
        driverSize = size;
        driver = i;
      }
    });
    const lists = [...(groups[driver] as Map<number, number>).keys()].map((t) => this.postings[t] as number[]);
    const pos = new Int32Array(lists.length);
    const heap = new MergeHeap();
    lists.forEach((list, i) => {
      if (list.length > 0) heap.push(list[0] as number, i);
    });
    let read = 0;
    let last = -1;
    let added = 0;
    while (heap.size > 0 && added < want && read < WALK_BUDGET) {
      const [id, li] = heap.pop();
      read++;
      const list = lists[li] as number[];
      const next = (pos[li] as number) + 1;
      pos[li] = next;
      if (next < list.length) heap.push(list[next] as number, li);
      if (id === last) continue;
      last = id;
      if (!this.alive[id] || found.has(id)) continue;
      const hit = this.match(id, groups);
      if (hit) {
        found.set(id, hit);
        added++;
      }
    }
  }

  /** A document's match of every group, or null when one has no spelling in it. */
  private match(id: number, groups: Map<number, number>[]): IndexHit | null {
    const terms = this.docTerms[id] as Int32Array;
    const fields = this.docFields[id] as Uint8Array;
    let cost = 0;
    let titleWords = 0;
    for (const g of groups) {
      let best = Infinity;
      let inTitle = false;
      for (let i = 0; i < terms.length; i++) {
        const c = g.get(terms[i] as number);
        if (c !== undefined && (c < best || (c === best && fields[i] === 0))) {
          best = c;
          inTitle = fields[i] === 0;
        }
      }
      if (best === Infinity) return null;
      cost += best;
      if (inTitle) titleWords++;
    }
    return {
      key: this.docKeys[id] as string,
      cost,
      popularity: this.docPopularity[id] as number,
      titleWords,
      wordsMatched: groups.length,
      exactTitle: cost === 0 && titleWords === groups.length && this.docTitleWords[id] === groups.length,
      wholeTitle: titleWords === groups.length && this.docTitleWords[id] === groups.length,
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
    // Words as typed first, then completions of the last, then typos: a popular near miss never crowds out
    // what was typed right.
    for (const bound of [0, COMPLETION, Infinity]) {
      if (found.size >= want) break;
      const tier = bound === Infinity ? groups : groups.map((g) => new Map([...g].filter(([, c]) => c <= bound)));
      this.walk(tier, want - found.size, found);
    }
    if (found.size > 0 || groups.length === 1) return [...found.values()];
    // Nobody holds every word: each word of 3 letters or more on its own (short ones match too much alone),
    // ranked by how many words a document holds, at least half of them.
    const partial = new Map<number, IndexHit>();
    for (const [i, g] of groups.entries()) {
      if ((words[i] as string).length < 3) continue;
      const alone = new Map<number, IndexHit>();
      this.walk([g], want, alone);
      for (const [id, hit] of alone) {
        const prior = partial.get(id);
        if (prior) {
          prior.cost += hit.cost;
          prior.wordsMatched++;
          prior.titleWords += hit.titleWords;
        } else partial.set(id, { ...hit, wordsMatched: 1, exactTitle: false, wholeTitle: false });
      }
    }
    return [...partial.values()].filter((hit) => hit.wordsMatched * 2 >= words.length);
  }

  /** The spellings a word has in the vocabulary (for tests and the query log). */
  spellings(word: string, prefix: boolean): string[] {
    return [...this.expand(word, prefix)].sort((a, b) => a[1] - b[1]).map(([t]) => this.terms[t] as string);
  }
}

/**
 * Order hits: most words matched, the exact title, lowest cost, the whole title, most words in the title, then
 * popularity.
 */
export function compareHits(a: IndexHit, b: IndexHit): number {
  return (
    b.wordsMatched - a.wordsMatched ||
    Number(b.exactTitle) - Number(a.exactTitle) ||
    a.cost - b.cost ||
    Number(b.wholeTitle) - Number(a.wholeTitle) ||
    b.titleWords - a.titleWords ||
    b.popularity - a.popularity ||
    (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)
  );
}
