/**
 * What a model pays to see the tool list, and tools a model would mix up.
 *
 * Cost: clients hand a model each tool's name, description and inputSchema (not outputSchema,
 * annotations or _meta), on every request, before the user's words. Tokens are estimated at
 * one per 4 characters of that JSON: OpenAI's and Anthropic's rule of thumb for English text
 * ("about 4 characters per token"). JSON punctuation tokenizes denser than prose, so the
 * estimate errs low; a real tokenizer would be exact for one model family only, and a lint
 * needs the order of magnitude and the largest tools, not the exact count.
 *
 * Near-duplicates: a model picks a tool by its name and description; two that read nearly the
 * same get mixed up (calls to the wrong one, or to both). A pair is reported when
 *  - the names are the same once case and separators are ignored (`getUser`, `get_user`), or
 *  - the names are similar (normalized edit distance: 1 − distance / longer length ≥ 0.8, e.g.
 *    `read_file` / `read_files`) and so are the descriptions (word overlap ≥ 0.5), or
 *  - the descriptions alone are nearly the same (word overlap ≥ 0.8, both of 6 or more words).
 * Word overlap is the Jaccard index of the descriptions' words (lowercased, 3+ letters, common
 * words left out): `get_user` / `set_user` with "Gets a user" / "Sets a user" overlap 1/3, not
 * reported; the thresholds were chosen so that each of those pairs is, and such pairs are not.
 */
import type { CheckInput, Finding, ListedTool } from './checkTypes';
import { specSection } from './specLinks';

export const CHARS_PER_TOKEN = 4;
export const NAME_SIMILARITY = 0.8;
export const DESCRIPTION_OVERLAP_WITH_NAME = 0.5;
export const DESCRIPTION_OVERLAP_ALONE = 0.8;
const MIN_WORDS_ALONE = 6;
/** Pairs reported at most: past that the list has a pattern, not a few slips. */
const MAX_PAIRS = 10;
const TOP_OFFENDERS = 5;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** The part of a tool a model sees, as clients send it. */
export function modelFacingJson(tool: ListedTool): string {
  return JSON.stringify({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema });
}

const toolName = (tool: ListedTool) => (typeof tool.name === 'string' ? tool.name : '(unnamed)');
const fmt = (n: number) => n.toLocaleString('en-US');

export function checkToolListCost(input: CheckInput): Finding[] {
  const costs = input.tools.map((tool) => ({ name: toolName(tool), chars: modelFacingJson(tool).length }));
  const chars = costs.reduce((sum, c) => sum + c.chars, 0);
  const tokens = Math.ceil(chars / CHARS_PER_TOKEN);
  const budget = input.budgets.maxToolListTokens;
  if (tokens <= budget) return [];
  const top = [...costs]
    .sort((a, b) => b.chars - a.chars)
    .slice(0, TOP_OFFENDERS)
    .map((c) => `"${c.name}" ~${fmt(Math.ceil(c.chars / CHARS_PER_TOKEN))} (${Math.round((100 * c.chars) / chars)}%)`);
  return [
    {
      check: 'tool-list-cost',
      severity: 'warning',
      subject: 'tools/list',
      spec: specSection(input, 'Tools › Listing Tools', 'server/tools', 'listing-tools'),
      message: `The tool list costs a model about ${fmt(tokens)} tokens on every request (${fmt(chars)} characters of name, description and inputSchema in ${input.tools.length} tools, ~${CHARS_PER_TOKEN} characters a token; budget ${fmt(budget)}). Largest: ${top.join(', ')}. Shorten descriptions and schemas, or split the server.`,
    },
  ];
}

/** Lowercased words joined by `_`: `getUser`, `get-user` and `Get.User` are all `get_user`. */
export function normalizeName(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .join('_');
}

/** Levenshtein distance (insert, delete, replace), two rows. */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length];
}

/** 1 for the same string, 0 for nothing in common: 1 − edit distance / the longer length. */
export function nameSimilarity(a: string, b: string): number {
  const longer = Math.max(a.length, b.length);
  return longer === 0 ? 1 : 1 - editDistance(a, b) / longer;
}

const COMMON = new Set(
  'the and for with from this that these those are was were been its into onto over than then when what which who whom whose will would can could should may might must not all any each one two use used uses using tool tools given returns return'.split(
    ' ',
  ),
);

export function descriptionWords(text: unknown): Set<string> {
  if (typeof text !== 'string') return new Set();
  return new Set((text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []).filter((w) => !COMMON.has(w)));
}

/** The Jaccard index of two word sets (0 when both are empty). */
export function wordOverlap(a: Set<string>, b: Set<string>): number {
  if (!a.size && !b.size) return 0;
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  return shared / (a.size + b.size - shared);
}

export function checkNearDuplicateTools(input: CheckInput): Finding[] {
  const spec = specSection(input, 'Tools › Tool', 'server/tools', 'tool');
  const tools = input.tools
    .filter((t): t is ListedTool & { name: string } => typeof t.name === 'string' && t.name !== '')
    .map((t) => ({ name: t.name, norm: normalizeName(t.name), words: descriptionWords(t.description) }));
  const findings: Finding[] = [];
  let pairs = 0;
  for (let i = 0; i < tools.length; i++) {
    for (let j = i + 1; j < tools.length; j++) {
      const a = tools[i];
      const b = tools[j];
      // The same name twice is checkToolNames' error.
      if (a.name === b.name) continue;
      const names = nameSimilarity(a.norm, b.norm);
      const overlap = wordOverlap(a.words, b.words);
      let why: string | undefined;
      if (a.norm === b.norm) why = 'their names differ only in case or separators';
      else if (names >= NAME_SIMILARITY && overlap >= DESCRIPTION_OVERLAP_WITH_NAME)
        why = `their names are ${Math.round(names * 100)}% alike and their descriptions share ${Math.round(overlap * 100)}% of their words`;
      else if (overlap >= DESCRIPTION_OVERLAP_ALONE && Math.min(a.words.size, b.words.size) >= MIN_WORDS_ALONE)
        why = `their descriptions share ${Math.round(overlap * 100)}% of their words`;
      if (!why) continue;
      if (++pairs > MAX_PAIRS) continue;
      findings.push({
        check: 'tool-near-duplicate',
        severity: 'warning',
        subject: `${a.name} / ${b.name}`,
        spec,
        message: `The tools "${a.name}" and "${b.name}" are easy for a model to confuse: ${why}. Merge them, or name and describe how they differ.`,
      });
    }
  }
  if (pairs > MAX_PAIRS)
    findings.push({
      check: 'tool-near-duplicate',
      severity: 'info',
      subject: 'tools',
      spec,
      message: `${pairs - MAX_PAIRS} more pairs of near-duplicate tools are not listed.`,
    });
  return findings;
}
