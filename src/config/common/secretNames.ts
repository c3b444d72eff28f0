/**
 * Header and env names whose values are secrets: the definition builder keeps their values
 * out of logs and traces, and import moves their literal values into password inputs.
 */
export const SECRET_HEADER = /^(authorization|proxy-authorization|cookie|x-api-key|api-key)$/i;
export const SECRET_ENV = /(token|secret|password|passwd|api[_-]?key|credential)/i;

/**
 * Header names whose values are kept out of logs: the known credential headers and any name
 * that says auth, token, key, secret or password (`X-Custom-Auth`, `X-Goog-Api-Key`).
 */
export function isSecretHeaderName(name: string): boolean {
  return SECRET_HEADER.test(name) || SECRET_ENV.test(name) || /auth|key|session|signature/i.test(name);
}
