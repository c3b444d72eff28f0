/**
 * Whether a `dev.watch` event is a change of content. Editors write a file on every save, also
 * when nothing changed (auto-save, then Ctrl+S; Ctrl+S on a clean file), and each write is a
 * save and a watcher event: without this every such save restarted the server. So the dev loop
 * keeps a hash of each watched file, seeded when the watch starts, and an event whose file
 * still has the hash it had is not a change. A file that appears or disappears is one. Pure
 * (Node's fs and crypto; the glob syntax is VS Code's, as far as `*`, `**`, `?`, `{a,b}` and
 * `[…]` go).
 */
import { createHash } from 'node:crypto';
import { promises as fs, type Dirent } from 'node:fs';
import * as path from 'node:path';

/**
 * What seeding reads at most: a watch of a big tree must not read it all at every start. A
 * file left out is "unknown", and any event for it counts as a change (as before hashes).
 */
export const SEED_LIMITS = { files: 2000, bytes: 4 * 1024 * 1024 };

/**
 * A file modified this close before the seed started is left unknown too: file times come from
 * a coarser clock than Date.now() (and some file systems round them down by up to 2 s), so a
 * write just after the start could look older and its new content pass for the seed.
 */
const MTIME_MARGIN_MS = 2000;

/** Folders a `**` walk does not enter unless the pattern names them. */
const SKIPPED_FOLDERS = new Set(['node_modules', '.git']);

/** A glob (VS Code's syntax) as a RegExp over `/`-separated relative paths. */
export function globRegExp(pattern: string): RegExp {
  let re = '';
  let braces = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*' && pattern[i + 1] === '*') {
      i++;
      // `**/` is any number of folders (none too); a trailing `**` is anything below.
      if (pattern[i + 1] === '/') {
        re += '(?:[^/]*/)*';
        i++;
      } else {
        re += '.*';
      }
    } else if (c === '*') {
      re += '[^/]*';
    } else if (c === '?') {
      re += '[^/]';
    } else if (c === '[' && pattern.indexOf(']', i + 2) > 0) {
      const end = pattern.indexOf(']', i + 2);
      const body = pattern.slice(i + 1, end).replace(/\\/g, '\\\\');
      re += `[${body.startsWith('!') ? `^${body.slice(1)}` : body}]`;
      i = end;
    } else if (c === '{') {
      braces++;
      re += '(?:';
    } else if (c === '}' && braces > 0) {
      braces--;
      re += ')';
    } else if (c === ',' && braces > 0) {
      re += '|';
    } else {
      re += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    }
  }
  return new RegExp(`^${re}$`);
}

/** How a file reads for the comparison: a hash of its bytes, or undefined when it is not there. */
export type ContentReader = (file: string) => Promise<string | undefined>;

/** sha-256 of the file's bytes; undefined when it does not exist (or is not a readable file). */
export const hashFile: ContentReader = async (file) => {
  try {
    return createHash('sha256')
      .update(await fs.readFile(file))
      .digest('hex');
  } catch {
    return undefined;
  }
};

/** The hash of a file known not to exist. */
const ABSENT = '';

export class WatchedContent {
  /** Each known file's hash, or ABSENT. A file not in the map is unknown. */
  private readonly hashes = new Map<string, string>();
  /** The check in progress per file: events of one file are compared one after another. */
  private readonly checks = new Map<string, Promise<boolean>>();
  /** Files an event was seen for: their seed, which may have read older content, is dropped. */
  private readonly touched = new Set<string>();

  constructor(private readonly read: ContentReader = hashFile) {}

  /** How many files have a known content (for the tests and the log). */
  get size(): number {
    return this.hashes.size;
  }

  /**
   * Reads the files under each target that its pattern matches (up to SEED_LIMITS). A file
   * whose event came before its seed is left as that event recorded it; a file modified after
   * `startedAt` (by its mtime, read after its content, less MTIME_MARGIN_MS) is left unknown:
   * its content may be newer than what the server loaded, and then its event must count.
   */
  async seed(targets: readonly { base: string; pattern: string }[], startedAt = Date.now()): Promise<void> {
    let budget = SEED_LIMITS.files;
    for (const { base, pattern } of targets) {
      const match = globRegExp(pattern);
      const deep = pattern.includes('/') || pattern.includes('**');
      const named = (name: string) => pattern.includes(name);
      const walk = async (dir: string, rel: string): Promise<void> => {
        let entries: Dirent[];
        try {
          entries = await fs.readdir(dir, { withFileTypes: true });
        } catch {
          return;
        }
        for (const entry of entries) {
          if (budget <= 0) return;
          const relative = rel ? `${rel}/${entry.name}` : entry.name;
          const full = path.join(dir, entry.name);
          if (entry.isDirectory()) {
            if (deep && (!SKIPPED_FOLDERS.has(entry.name) || named(entry.name))) await walk(full, relative);
          } else if (entry.isFile() && match.test(relative)) {
            budget--;
            await this.seedFile(full, startedAt);
          }
        }
      };
      await walk(base, '');
    }
  }

  private async seedFile(file: string, startedAt: number): Promise<void> {
    if (this.hashes.has(file) || this.touched.has(file)) return;
    try {
      const before = await fs.stat(file);
      if (before.size > SEED_LIMITS.bytes) return;
      const hash = await this.read(file);
      const after = await fs.stat(file);
      if (hash === undefined || after.mtimeMs >= startedAt - MTIME_MARGIN_MS || after.mtimeMs !== before.mtimeMs) return;
      if (!this.hashes.has(file) && !this.touched.has(file)) this.hashes.set(file, hash);
    } catch {
      // Gone meanwhile: unknown, so its next event counts.
    }
  }

  /**
   * Whether an event for `file` changed its content since the last event (or the seed), and
   * remembers the content it has now. An unknown file counts as changed.
   */
  changed(file: string): Promise<boolean> {
    this.touched.add(file);
    const previous = this.checks.get(file) ?? Promise.resolve(true);
    const check = previous
      .catch(() => true)
      .then(async () => {
        const hash = (await this.read(file)) ?? ABSENT;
        const known = this.hashes.get(file);
        this.hashes.set(file, hash);
        return known !== hash;
      });
    this.checks.set(file, check);
    void check.finally(() => {
      if (this.checks.get(file) === check) this.checks.delete(file);
    });
    return check;
  }
}
