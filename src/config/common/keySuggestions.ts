/**
 * "Did you mean `command`?" for the keys of a server entry. Pure. A misspelt key must not make
 * an entry vanish: the parser keeps the entry as a broken server and names the key it likely
 * meant; the language server offers the rename as a quick fix.
 */
import type * as jsonc from 'jsonc-parser';

/** Every key a server entry may have in this extension's config format. */
export const SERVER_ENTRY_KEYS = [
  'type',
  'command',
  'args',
  'env',
  'envFile',
  'cwd',
  'url',
  'headers',
  'disabled',
  'timeouts',
  'protocolEra',
  'oauth',
  'dev',
  'sampling',
  // VS Code's sandbox keys (entryPolicy.ts); `sandbox` in an entry is its older builds' place.
  'sandboxEnabled',
  'sandbox',
  // Tools hidden from chat (Gemini CLI's spelling, ours too; entryPolicy.ts).
  'includeTools',
  'excludeTools',
] as const;

/**
 * Keys other hosts write into the same files (Cline, Roo, Cursor, Windsurf, Gemini CLI, VS Code's
 * gallery): they are not ours, but not typos either, so they are never "corrected".
 */
const OTHER_HOSTS_KEYS = new Set([
  'timeout',
  'autoApprove',
  'alwaysAllow',
  'disabledTools',
  'transportType',
  'serverUrl',
  'httpUrl',
  'trust',
  'description',
  'name',
  'gallery',
  'version',
  'enabled',
  'autoStart',
  'watchPaths',
]);

/** Words people write for a key that no edit distance finds. */
const ALIASES: Record<string, string> = {
  cmd: 'command',
  arguments: 'args',
  argv: 'args',
  environment: 'env',
  workingDirectory: 'cwd',
  workdir: 'cwd',
  dir: 'cwd',
  endpoint: 'url',
  uri: 'url',
  transport: 'type',
};

/**
 * The known key an unknown one most likely means, or undefined when none is close enough (or
 * the key is another host's). Close enough: an optimal-string-alignment distance of 1 for keys
 * of up to 4 letters, 2 for longer ones, case ignored.
 */
export function suggestKey(key: string, known: readonly string[] = SERVER_ENTRY_KEYS): string | undefined {
  if (known.includes(key) || OTHER_HOSTS_KEYS.has(key)) return undefined;
  // Aliases are matched with the same tolerance: `enviroment` is a misspelt `environment`, which means `env`.
  const candidates: [word: string, key: string][] = [
    ...known.map((k): [string, string] => [k, k]),
    ...Object.entries(ALIASES).filter(([, k]) => known.includes(k)),
  ];
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const [word, target] of candidates) {
    const limit = Math.min(word.length, key.length) <= 4 ? 1 : 2;
    const distance = editDistance(key.toLowerCase(), word.toLowerCase());
    if (distance <= limit && distance < bestDistance) {
      best = target;
      bestDistance = distance;
    }
  }
  return best;
}

/** The keys of an entry object that look like misspelt known keys (and whose known key is not there too). */
export function misspeltKeys(entry: jsonc.Node): { key: string; suggestion: string; keyNode: jsonc.Node }[] {
  const keys = (entry.children ?? []).map((p) => p.children?.[0]).filter((k): k is jsonc.Node => k !== undefined);
  const present = new Set(keys.map((k) => String(k.value)));
  return keys.flatMap((keyNode) => {
    const key = String(keyNode.value);
    const suggestion = suggestKey(key);
    return suggestion && !present.has(suggestion) ? [{ key, suggestion, keyNode }] : [];
  });
}

/**
 * Damerau-Levenshtein distance in its optimal-string-alignment form: insertions, deletions,
 * substitutions and swaps of two neighbours (`comamnd`) each cost 1.
 */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}
