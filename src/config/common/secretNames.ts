/**
 * Header and env names whose values are secrets: the definition builder keeps their values
 * out of logs and traces, and import moves their literal values into password inputs.
 */
export const SECRET_HEADER = /^(authorization|proxy-authorization|cookie|x-api-key|api-key)$/i;
export const SECRET_ENV = /(token|secret|password|passwd|api[_-]?key|credential)/i;
