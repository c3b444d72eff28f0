/**
 * The one redaction path: everything a user or a log can see (output channels, traces, Activity
 * records, state messages, notifications, copied JSON) goes through `redactText` or
 * `redactValue` with the secrets of its server (`ServerDefinition.secrets`, collected by the
 * definition builder, plus OAuth tokens known at run time). Known secret values are replaced,
 * and so are bearer tokens and the values of keys that name credentials.
 */
const SECRET_KEY_NAMES =
  'authorization|proxy-authorization|cookie|set-cookie|x-api-key|api[-_]?key|access[-_]?token|refresh[-_]?token|id[-_]?token|token|password|secret|client[-_]?secret';
const SECRET_KEY = new RegExp(`^(${SECRET_KEY_NAMES})$`, 'i');
const BEARER = /(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/g;
/**
 * A credential written into text as `api_key=…` or `"password": "…"`: a name of SECRET_KEY and a
 * value of 8 or more token characters with a digit in it (`api_key: YOUR_KEY` is a placeholder).
 */
const SECRET_ASSIGNMENT = new RegExp(`\\b(${SECRET_KEY_NAMES})["']?\\s*[:=]\\s*["']?(?=[\\w.~+/=-]*\\d)[\\w.~+/=-]{8,}`, 'i');

export const REDACTED = '«redacted»';

export function redactText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    // Very short values would redact ordinary words; they are not worth hiding that way.
    if (secret && secret.length >= 4) out = out.split(secret).join(REDACTED);
  }
  return out.replace(BEARER, `$1${REDACTED}`);
}

export type SecretKind = 'known secret' | 'bearer token' | 'credential assignment';

/**
 * What in `text` looks like a credential, by the same detectors redaction uses (and one for
 * `name=value` text, whose names are those whose values redaction hides in objects): for a
 * check that text a server publishes carries none. Says what kind, never the value.
 */
export function secretKindsIn(text: string, secrets: readonly string[]): SecretKind[] {
  const kinds: SecretKind[] = [];
  if (secrets.some((secret) => secret && secret.length >= 4 && text.includes(secret))) kinds.push('known secret');
  if (new RegExp(BEARER.source).test(text)) kinds.push('bearer token');
  if (SECRET_ASSIGNMENT.test(text)) kinds.push('credential assignment');
  return kinds;
}

export function redactValue<T>(value: T, secrets: readonly string[]): T {
  return walk(value, secrets) as T;
}

function walk(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return redactText(value, secrets);
  if (Array.isArray(value)) return value.map((v) => walk(v, secrets));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = SECRET_KEY.test(k) && (typeof v === 'string' || typeof v === 'number') ? REDACTED : walk(v, secrets);
    }
    return out;
  }
  return value;
}

/**
 * `JSON.stringify(redactValue(value, secrets)).slice(0, maxChars)` for plain JSON data, without
 * walking (or copying) more of the value than the first `maxChars` of its JSON need: the preview
 * of a message of many megabytes costs what the preview costs.
 */
export function redactedJsonPrefix(value: unknown, secrets: readonly string[], maxChars: number): string {
  const parts: string[] = [];
  let length = 0;
  /** Appends; true once enough is written (every caller then stops). */
  const emit = (text: string): boolean => {
    parts.push(text);
    length += text.length;
    return length >= maxChars;
  };
  const skipped = (v: unknown) => v === undefined || typeof v === 'function' || typeof v === 'symbol';
  const visit = (raw: unknown, key: string): boolean => {
    const v = raw && typeof (raw as { toJSON?: unknown }).toJSON === 'function' ? (raw as { toJSON(k: string): unknown }).toJSON(key) : raw;
    if (typeof v === 'string') return emit(JSON.stringify(redactText(v, secrets)));
    if (v === null || typeof v !== 'object') return emit(skipped(v) ? 'null' : (JSON.stringify(v) ?? 'null'));
    if (Array.isArray(v)) {
      if (emit('[')) return true;
      for (let i = 0; i < v.length; i++) {
        if (i > 0 && emit(',')) return true;
        if (skipped(v[i]) ? emit('null') : visit(v[i], String(i))) return true;
      }
      return emit(']');
    }
    if (emit('{')) return true;
    let first = true;
    for (const [k, x] of Object.entries(v)) {
      if (skipped(x)) continue;
      if (!first && emit(',')) return true;
      first = false;
      if (emit(`${JSON.stringify(k)}:`)) return true;
      if (SECRET_KEY.test(k) && (typeof x === 'string' || typeof x === 'number') ? emit(JSON.stringify(REDACTED)) : visit(x, k)) return true;
    }
    return emit('}');
  };
  visit(value, '');
  return parts.join('').slice(0, maxChars);
}

/**
 * The parts of a URL that may carry credentials: the user name and password, and every query
 * value (API keys, signatures, tokens), each as written and percent-decoded.
 */
export function urlSecrets(raw: string): string[] {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return [];
  }
  const found = new Set<string>();
  const add = (value: string, plusIsSpace = false) => {
    if (!value) return;
    found.add(value);
    try {
      found.add(decodeURIComponent(plusIsSpace ? value.replace(/\+/g, ' ') : value));
    } catch {
      // a malformed escape: the raw form is enough
    }
  };
  add(url.username);
  add(url.password);
  for (const pair of url.search.replace(/^\?/, '').split('&')) {
    const eq = pair.indexOf('=');
    if (eq >= 0) add(pair.slice(eq + 1), true);
  }
  return [...found];
}

/** Header names whose whole value is a credential, beyond SECRET_KEY: any *token*, *secret*, *api-key*, *auth* or *cookie* header. */
const SECRET_HEADER = /(authorization|cookie|api[-_]?key|token|secret|password|auth)/i;

/**
 * An HTTP header as it may be shown: a credential header's value is replaced whole (whatever
 * its scheme), any other value has the server's secrets redacted like all text.
 */
export function redactHeader(name: string, value: string, secrets: readonly string[]): { value: string; redacted: boolean } {
  if (SECRET_KEY.test(name) || SECRET_HEADER.test(name)) return { value: REDACTED, redacted: true };
  const out = redactText(value, secrets);
  return { value: out, redacted: out !== value };
}
