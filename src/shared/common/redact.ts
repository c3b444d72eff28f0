/**
 * Removes secrets from anything written to logs or traces: known secret values (password
 * inputs, header values) and the values of keys that name credentials.
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
