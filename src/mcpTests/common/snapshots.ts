/**
 * The snapshots of one test file: `__snapshots__/<file>.snap.json` next to it, one JSON value per
 * key (`<test name> › step <n>`, `<test name> › capabilities`). Reading and writing the file is
 * the caller's; this keeps what was read, what a run used and what it changed.
 */
import { normalizeJson } from './jsonCompare';

export const SNAPSHOT_FOLDER = '__snapshots__';
const VERSION = 1;

export function snapshotPathOf(testFile: string): string {
  const slash = Math.max(testFile.lastIndexOf('/'), testFile.lastIndexOf('\\'));
  const sep = slash >= 0 ? testFile[slash] : '/';
  return `${testFile.slice(0, slash + 1)}${SNAPSHOT_FOLDER}${sep}${testFile.slice(slash + 1)}.snap.json`;
}

export function stepSnapshotKey(test: string, step: number): string {
  return `${test} › step ${step + 1}`;
}

export function capabilitySnapshotKey(test: string): string {
  return `${test} › capabilities`;
}

export class SnapshotFile {
  private readonly values: Map<string, unknown>;
  private readonly used = new Set<string>();
  private written = false;
  /** Why the stored file could not be read (it then counts as empty). */
  readonly problem?: string;

  /** `text` undefined: no file yet. A file that cannot be read counts as empty, with `problem` set. */
  constructor(text: string | undefined) {
    this.values = new Map();
    if (text === undefined) return;
    try {
      const parsed = JSON.parse(text) as { snapshots?: Record<string, unknown> };
      for (const [key, value] of Object.entries(parsed.snapshots ?? {})) this.values.set(key, value);
    } catch (error) {
      this.problem = `the snapshot file is not valid JSON (${(error as Error).message}); run with --update-snapshots to write it again`;
    }
  }

  get(key: string): unknown {
    this.used.add(key);
    return this.values.get(key);
  }

  set(key: string, value: unknown): void {
    this.used.add(key);
    this.values.set(key, normalizeJson(value));
    this.written = true;
  }

  /** Whether the file must be written after an update run: a value changed, or one is no longer used. */
  changed(ranEverything: boolean): boolean {
    return this.written || (ranEverything && [...this.values.keys()].some((k) => !this.used.has(k)));
  }

  /** The file's text; after a run of every test, values no test used any more are dropped. */
  serialize(ranEverything: boolean): string {
    const keys = [...this.values.keys()].filter((k) => !ranEverything || this.used.has(k)).sort();
    return `${JSON.stringify({ version: VERSION, snapshots: Object.fromEntries(keys.map((k) => [k, this.values.get(k)])) }, null, 2)}\n`;
  }
}
