/**
 * The one redaction path: everything a user or a log can see (output channels, traces, Activity
 * records, state messages, notifications, copied JSON) goes through `redactText` or
 * `redactValue` with the secrets of its server (`ServerDefinition.secrets`, collected by the
 * definition builder, plus OAuth tokens known at run time). Known secret values are replaced,
 * and so are bearer tokens and the values of keys that name credentials.
 */
const SECRET_KEY = /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key|api[-_]?key|access[-_]?token|refresh[-_]?token|id[-_]?token|token|password|secret|client[-_]?secret)$/i;

export const REDACTED = '«redacted»';

export function redactText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    // Very short values would redact ordinary words; they are not worth hiding that way.
    if (secret && secret.length >= 4) out = out.split(secret).join(REDACTED);
  }
  return out.replace(/(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/g, `$1${REDACTED}`);
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
