/**
 * List text that talks to the model instead of describing (tool poisoning) or carries a
 * credential. Clients put descriptions — of tools, of their arguments, of prompts and
 * resources — into the model's context as they are, and most users never read them; a
 * description is data about the tool, never instructions for the model. Read: each item's
 * `title` and `description`, and every `title` / `description` inside a tool's inputSchema
 * (where poisoning hides, as in the published "tool poisoning" examples) and a prompt's arguments.
 *
 * Patterns (case-insensitive; one finding per item and pattern):
 *  - error: telling the model to ignore or override its instructions; to keep something from
 *    the user; `<IMPORTANT>`, `<system>`, `<instructions>`-style tags addressed to the model;
 *    naming credential files (`~/.ssh`, `id_rsa`, `.aws/credentials`, `.netrc`, …); invisible
 *    characters (zero-width, bidi controls, the ones revealControlCharacters shows, and Unicode
 *    tag characters U+E0000–E007F, which carry ASCII no editor shows).
 *  - warning: telling the model which tool it must call ("you must call", "always invoke"):
 *    sometimes meant well, but that choice is the user's and the host's.
 *  - error: a credential, found by the detectors of the one redaction path (src/shared/common/
 *    redact.ts): the server's known secret values, bearer tokens, `api_key=…`-style text.
 */
import { secretKindsIn } from '../../shared/common/redact';
import { revealControlCharacters } from '../../shared/common/untrustedText';
import { isObject, type CheckInput, type Finding, type ListedItem, type Severity } from './checkTypes';
import { specSection } from './specLinks';

interface Pattern {
  id: string;
  severity: Severity;
  test: (text: string) => boolean;
  what: string;
}

const regex = (re: RegExp) => (text: string) => re.test(text);
/** Unicode tag characters: invisible everywhere, read by models as the ASCII they shadow. */
const TAG_CHARACTERS = /[\u{E0000}-\u{E007F}]/u;

export const INSTRUCTION_PATTERNS: readonly Pattern[] = [
  {
    id: 'ignore-instructions',
    severity: 'error',
    test: regex(
      /\b(ignore|disregard|forget|override)\s+(all\s+|any\s+)?(of\s+)?(the\s+|your\s+|my\s+)?(previous|prior|above|earlier|preceding|other|system|original)\s+(instructions?|prompts?|messages?|rules?|directions?|guidelines?)/i,
    ),
    what: 'tells the model to ignore its instructions',
  },
  {
    id: 'hide-from-user',
    severity: 'error',
    test: regex(
      /\b(do\s+not|don't|never)\s+(tell|inform|mention|reveal|show|notify|alert)\b[^.\n]{0,40}\buser\b|\bwithout\s+(telling|informing|notifying|asking|alerting)\s+the\s+user\b|\b(hide|conceal)\s+(this|it)\s+from\s+the\s+user\b/i,
    ),
    what: 'tells the model to keep something from the user',
  },
  {
    id: 'model-tag',
    severity: 'error',
    test: regex(/<\s*\/?\s*(important|system|instructions?|admin|hidden|secret|critical|assistant)\b[^>]*>/i),
    what: 'has an <IMPORTANT>-style tag addressed to the model',
  },
  {
    id: 'credential-file',
    severity: 'error',
    test: regex(/(~\/\.ssh\b|\bid_(rsa|ed25519|ecdsa)\b|\.aws\/credentials|~\/\.netrc\b|\.npmrc\b|\.cursor\/mcp\.json|\/etc\/(passwd|shadow)\b)/i),
    what: 'names credential files',
  },
  {
    id: 'invisible-characters',
    severity: 'error',
    test: (text) => revealControlCharacters(text) !== text || TAG_CHARACTERS.test(text),
    what: 'has invisible characters a user does not see but a model reads',
  },
  {
    id: 'must-call',
    severity: 'warning',
    test: regex(/\b(you\s+must|you\s+should|always|must\s+always|must\s+first)\s+(first\s+|also\s+)?(call|invoke|execute)\b/i),
    what: 'tells the model which tool it must call',
  },
];

/** The text of an item a model may read, with where it is. */
function textsOf(item: ListedItem & { title?: unknown; inputSchema?: unknown; arguments?: unknown }): { where: string; text: string }[] {
  const out: { where: string; text: string }[] = [];
  const add = (where: string, v: unknown) => typeof v === 'string' && v && out.push({ where, text: v });
  add('title', item.title);
  add('description', item.description);
  const walk = (schema: unknown, at: string, depth: number) => {
    // Schemas from servers can be deep or cyclic as parsed objects never are, but stay bounded anyway.
    if (depth > 20) return;
    if (Array.isArray(schema)) schema.forEach((s, i) => walk(s, `${at}[${i}]`, depth + 1));
    else if (isObject(schema)) {
      add(`${at}.title`, schema.title);
      add(`${at}.description`, schema.description);
      for (const [k, v] of Object.entries(schema)) if (typeof v === 'object') walk(v, `${at}.${k}`, depth + 1);
    }
  };
  walk(item.inputSchema, 'inputSchema', 0);
  if (Array.isArray(item.arguments))
    item.arguments.forEach((a, i) => isObject(a) && add(`arguments[${typeof a.name === 'string' ? a.name : i}].description`, a.description));
  return out;
}

const KINDS = [
  ['tools', 'tool'],
  ['prompts', 'prompt'],
  ['resources', 'resource'],
  ['resourceTemplates', 'resource template'],
] as const;

export function checkInstructions(input: CheckInput): Finding[] {
  const spec = specSection(input, 'Tools › Security Considerations', 'server/tools', 'security-considerations');
  const findings: Finding[] = [];
  for (const [key, kind] of KINDS) {
    for (const item of input[key] as readonly ListedItem[]) {
      const name = String(item.name ?? item.uri ?? item.uriTemplate ?? '(unnamed)');
      const texts = textsOf(item);
      for (const pattern of INSTRUCTION_PATTERNS) {
        const hit = texts.find((t) => pattern.test(t.text));
        if (!hit) continue;
        findings.push({
          check: 'description-instructions',
          severity: pattern.severity,
          subject: name,
          spec,
          message: `The ${hit.where} of the ${kind} "${name}" ${pattern.what}: descriptions are data for the model, not orders to it.`,
        });
      }
      const secrets = new Set(texts.flatMap((t) => secretKindsIn(t.text, input.secrets ?? []).map((k) => `${k}@${t.where}`)));
      const first = [...secrets][0];
      if (first) {
        const [secretKind, where] = first.split('@');
        findings.push({
          check: 'description-secret',
          severity: 'error',
          subject: name,
          spec,
          message: `The ${where} of the ${kind} "${name}" carries what looks like a credential (${secretKind}): every client and model that lists it can read it. Remove it and rotate it.`,
        });
      }
    }
  }
  return findings;
}
