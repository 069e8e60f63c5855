// Substring search that stays cheap to write: each task's title, description
// and tags go into an FTS5 index of WORDS (a few dozen tokens a task, where a
// trigram index of the whole text takes hundreds and measured 2-3 times slower
// to fill), and every distinct word into a small vocabulary with an FTS5
// trigram index. A search term's words are looked up in the vocabulary by
// substring; the tasks holding those words are candidates. Task ids, unique by
// nature, would bloat the vocabulary: their bigrams go into the same word
// index as encoded tokens instead (bigrams, not trigrams: ~1300 distinct
// tokens for [a-z0-9] ids instead of ~47 000, measured 4-9 µs less per stored
// task, and a two-character term is looked up too). All candidates are
// checked exactly afterwards.
import type { Database, Statement } from 'better-sqlite3';

/**
 * A word: a run of the characters FTS5's `ascii` tokenizer (tokenchars '-_')
 * keeps in a token: ASCII letters and digits, '-', '_', and every non-ASCII
 * character. Texts are lower-cased first, so no A-Z remain. The rule is per
 * character, so a term found inside a text has each of its words inside one of
 * the text's words: that is what makes the vocabulary lookup sound.
 */
const NON_WORD = /[^a-z0-9_\-\u0080-\uffff]+/;

/** Splits lower-cased text into its words (no empty strings). */
export function wordsOf(text: string): string[] {
  const parts = text.split(NON_WORD);
  if (parts.length > 0 && parts[0] === '') parts.shift();
  if (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

/** Code points, not UTF-16 units: the trigram tokenizer counts characters. */
function characterCount(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

function quoted(word: string): string {
  return `"${word.replaceAll('"', '""')}"`;
}

/** Words shorter than this cannot be looked up by trigram: the vocabulary (or the ids) are scanned instead. */
export const MIN_LOOKUP_CHARS = 3;

export class WordIndex {
  /** Words known to be in `search_words`; filled as words are met, not loaded up front. */
  private readonly known = new Set<string>();
  /** Words added to `known` inside the open transaction: forgotten again if it rolls back. */
  private added: string[] = [];
  private readonly insertWord: Statement<[string]>;
  private readonly insertTrigrams: Statement<[number | bigint, string]>;
  private readonly insertTask: Statement<[number, string]>;
  private readonly deleteTask: Statement<[number]>;
  private readonly wordsContaining: Statement<[string, string, number], { word: string }>;
  private readonly wordsEnding: Statement<[string, string, string, number], { word: string }>;
  private readonly wordsStarting: Statement<[string, string, number], { word: string }>;
  private readonly shortWordsContaining: Statement<[string, number], { word: string }>;
  private readonly shortWordsEnding: Statement<[string, string, number], { word: string }>;
  private readonly wordExists: Statement<[string], { word: string }>;
  private readonly matchTasks: Statement<[string, number, number], number>;
  private readonly merge: Statement<[number]>;
  private readonly totalChanges: Statement<[], { n: number }>;

  constructor(db: Database) {
    this.insertWord = db.prepare('INSERT OR IGNORE INTO search_words (word) VALUES (?)');
    this.insertTrigrams = db.prepare('INSERT INTO search_word_trigrams (rowid, word) VALUES (?, ?)');
    this.insertTask = db.prepare('INSERT INTO task_words (rowid, words) VALUES (?, ?)');
    this.deleteTask = db.prepare('DELETE FROM task_words WHERE rowid = ?');
    this.wordsContaining = db.prepare(
      `SELECT w.word AS word FROM search_word_trigrams
         JOIN search_words w ON w.word_id = search_word_trigrams.rowid
        WHERE search_word_trigrams MATCH ? AND instr(w.word, ?) > 0
        LIMIT ?`,
    );
    this.wordsEnding = db.prepare(
      `SELECT w.word AS word FROM search_word_trigrams
         JOIN search_words w ON w.word_id = search_word_trigrams.rowid
        WHERE search_word_trigrams MATCH ? AND substr(w.word, length(w.word) - length(?) + 1) = ?
        LIMIT ?`,
    );
    // Parts too short for trigrams scan the vocabulary itself: a few thousand
    // short words, ~1 ms (measured), where walking the tasks reads every description.
    this.shortWordsContaining = db.prepare('SELECT word FROM search_words WHERE instr(word, ?) > 0 LIMIT ?');
    this.shortWordsEnding = db.prepare(
      'SELECT word FROM search_words WHERE substr(word, length(word) - length(?) + 1) = ? LIMIT ?',
    );
    this.wordsStarting = db.prepare('SELECT word FROM search_words WHERE word >= ? AND word < ? LIMIT ?');
    this.wordExists = db.prepare('SELECT word FROM search_words WHERE word = ?');
    this.merge = db.prepare("INSERT INTO task_words (task_words, rank) VALUES ('merge', ?)");
    this.totalChanges = db.prepare('SELECT total_changes() AS n');
    // Plucked: a row object a posting cost ~0.4 µs more than the posting itself (measured at a
    // million tasks: 2 586 candidates of a word in 1.2 ms as objects, 0.4 ms plucked).
    this.matchTasks = db
      .prepare<[string, number, number], number>(
        'SELECT rowid FROM task_words WHERE task_words MATCH ? AND rowid > ? ORDER BY rowid LIMIT ?',
      )
      .pluck();
  }

  /** Indexes a task's (lower-case) searchable text and id under its row id, its words in the vocabulary. */
  add(rid: number, text: string, id: string): void {
    this.register(text);
    this.insertTask.run(rid, `${text} ${idBigramTokens(id)}`);
  }

  /** Puts the words of a (lower-case) text in the vocabulary only (a first load indexes tasks later). */
  register(text: string): void {
    for (const word of wordsOf(text)) this.registerWord(word);
  }

  /** Puts one word in the vocabulary (and its trigram index) unless it is there. */
  registerWord(word: string): void {
    if (this.known.has(word)) return;
    const { changes, lastInsertRowid } = this.insertWord.run(word);
    if (changes > 0) this.insertTrigrams.run(lastInsertRowid, word);
    this.known.add(word);
    this.added.push(word);
  }

  remove(rid: number): void {
    this.deleteTask.run(rid);
  }

  /**
   * One bounded step of merging the index's segments: at most `pages` leaf
   * pages of work, on the levels holding several segments. Writes never merge
   * (automerge is off, migration 0007): the pull worker calls this after its
   * writes. Returns whether there was work (fewer than two changes: none, FTS5 docs).
   */
  mergeStep(pages: number): boolean {
    const before = this.totalChanges.get()?.n ?? 0;
    this.merge.run(pages);
    return (this.totalChanges.get()?.n ?? 0) - before >= 2;
  }

  /** The enclosing transaction committed: the words added are in the file for good. */
  committed(): void {
    this.added = [];
  }

  /** The enclosing transaction rolled back: forget the words it added. */
  rolledBack(): void {
    for (const word of this.added) this.known.delete(word);
    this.added = [];
  }

  /**
   * The vocabulary words containing `part` (one word of a search term, lower
   * case), or null when there are more than `max` (the part narrows too little
   * to be worth an OR of them).
   */
  wordsWith(part: string, max: number): string[] | null {
    if (characterCount(part) < MIN_LOOKUP_CHARS)
      return limited(this.shortWordsContaining.all(part, max + 1), max);
    return limited(this.wordsContaining.all(quoted(part), part, max + 1), max);
  }

  /** Vocabulary words ending with `part` (null: more than `max`). */
  wordsEndingWith(part: string, max: number): string[] | null {
    if (characterCount(part) < MIN_LOOKUP_CHARS)
      return limited(this.shortWordsEnding.all(part, part, max + 1), max);
    return limited(this.wordsEnding.all(quoted(part), part, part, max + 1), max);
  }

  /** Vocabulary words starting with `part`: a range of the vocabulary's own index, whatever its length. */
  wordsStartingWith(part: string, max: number): string[] | null {
    const chars = [...part];
    const last = chars.pop() as string;
    // Every text starting with `part` sorts below `part` with its last character stepped up by one.
    const upper = chars.join('') + String.fromCodePoint((last.codePointAt(0) as number) + 1);
    return limited(this.wordsStarting.all(part, upper, max + 1), max);
  }

  /** `[part]` when it is a word of some task, else []. */
  wordIs(part: string): string[] {
    return this.wordExists.all(part).map((r) => r.word);
  }

  /** Row ids of tasks matching an FTS5 query over words, at most `limit`. */
  match(query: string, limit: number, afterRid = 0): number[] {
    return this.matchTasks.all(query, afterRid, limit);
  }
}

/**
 * The distinct id bigram tokens of `term` (lower case): a task whose id
 * contains the term holds each of them, so tasks holding them all (or some)
 * are a superset of those ids. None for a term shorter than {@link MIN_ID_LOOKUP_CHARS}.
 */
export function idTermTokens(term: string): string[] {
  const tokens = idBigramTokens(term);
  return tokens === '' ? [] : [...new Set(tokens.split(' '))];
}

/** Ids shorter than this are not in the word index's id bigrams: scanned instead. */
export const MIN_ID_LOOKUP_CHARS = 2;

/** What every id bigram token starts with (migration 0006 writes the same). */
export const ID_TOKEN_MARK = 'ǂ';

/**
 * A lower-case id's bigrams as word tokens: `ǂ` and the hex of the bigram's
 * UTF-8 (migration 0006 writes the same in SQL). The prefix keeps them apart
 * from real words; a clash would only add a candidate, which the exact check drops.
 */
export function idBigramTokens(id: string): string {
  // Printable-ASCII ids (the usual) take each bigram's token from a table, made once per bigram, and join
  // them once: concatenating 15 tokens a task built a rope SQLite then flattened (~4 µs a task of the first
  // load's word-index build at 100 000 tasks, ~1 µs this way; measured).
  if (ASCII.test(id)) {
    const tokens = new Array<string>(Math.max(0, id.length - 1));
    for (let i = 0; i + 2 <= id.length; i++)
      tokens[i] = asciiBigramToken(id.charCodeAt(i), id.charCodeAt(i + 1));
    return tokens.join(' ');
  }
  const chars = [...id];
  let tokens = '';
  for (let i = 0; i + 2 <= chars.length; i++) {
    const bigram = Buffer.from(chars[i]! + chars[i + 1]!, 'utf8').toString('hex');
    tokens += `${i === 0 ? '' : ' '}${ID_TOKEN_MARK}${bigram}`;
  }
  return tokens;
}

const ASCII = /^[ -~]*$/;
const HEX = Array.from({ length: 128 }, (_, code) => code.toString(16).padStart(2, '0'));
/** The tokens of printable-ASCII bigrams met so far, by (first code << 7 | second code). */
const ASCII_BIGRAM_TOKENS: (string | undefined)[] = new Array<string | undefined>(128 * 128);

function asciiBigramToken(first: number, second: number): string {
  const key = (first << 7) | second;
  return (ASCII_BIGRAM_TOKENS[key] ??= `${ID_TOKEN_MARK}${HEX[first]}${HEX[second]}`);
}

function limited(rows: { word: string }[], max: number): string[] | null {
  return rows.length > max ? null : rows.map((r) => r.word);
}

/**
 * The words of a search term, each with what a text word holding it must look
 * like. A term found inside a text puts each of its words inside one text
 * word; a term word with a separator after it (within the term) ends that text
 * word, one with a separator before it starts it, one with both is it.
 */
export interface TermWord {
  word: string;
  /** The text word may go on before it (it opens the term). */
  openBefore: boolean;
  /** The text word may go on after it (it closes the term). */
  openAfter: boolean;
}

export function termWords(term: string): TermWord[] {
  const words = wordsOf(term);
  const startsWithWord = words.length > 0 && term.startsWith(words[0] as string);
  const endsWithWord = words.length > 0 && term.endsWith(words[words.length - 1] as string);
  return words.map((word, i) => ({
    word,
    openBefore: i === 0 && startsWithWord,
    openAfter: i === words.length - 1 && endsWithWord,
  }));
}

/** An FTS5 query that is true when, for every group, the text holds one of its words. */
export function allOfAnyQuery(groups: readonly (readonly string[])[]): string {
  return groups.map((words) => `(${words.map(quoted).join(' OR ')})`).join(' AND ');
}

/** An FTS5 query true when the text holds every word of one of the alternatives. */
export function anyOfAllQuery(alternatives: readonly (readonly string[])[]): string {
  return `(${alternatives.map((words) => `(${words.map(quoted).join(' AND ')})`).join(' OR ')})`;
}
