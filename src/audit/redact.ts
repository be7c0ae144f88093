/**
 * Redaction before anything reaches the audit log. Two rules:
 * 1. values under keys that name a secret (token, secret, password, passwd, api_key, apikey,
 *    authorization, auth, credential(s), private_key, cookie, session) are replaced whole;
 * 2. inside every string, well-known secret shapes are replaced: private key blocks, `Bearer`/`Basic`
 *    credentials, `user:password@` in URLs, AWS access key ids, GitHub, GitLab, Slack, OpenAI and
 *    Anthropic style tokens, JWTs, and `KEY=value` / `--password value` where the name is secret-like.
 */

const SECRET_KEY =
  /^(.*[_-])?(token|secret|password|passwd|api[_-]?key|authorization|auth|credentials?|private[_-]?key|cookie|session[_-]?id)$/i;

const SECRET_SHAPES: [RegExp, string][] = [
  [
    /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)/g,
    "[REDACTED:private-key]",
  ],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/g, "$1 [REDACTED]"],
  [/\b([a-z][a-z0-9+.-]*:\/\/)([^/\s:@]+):([^/\s@]+)@/gi, "$1$2:[REDACTED]@"],
  [/\b(AKIA|ASIA)[A-Z0-9]{16}\b/g, "[REDACTED:aws-key-id]"],
  [/\b(gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})\b/g, "[REDACTED:github-token]"],
  [/\bglpat-[A-Za-z0-9_-]{20,}\b/g, "[REDACTED:gitlab-token]"],
  [/\bxox[abposr]-[A-Za-z0-9-]{10,}\b/g, "[REDACTED:slack-token]"],
  [/\bsk-(ant-)?[A-Za-z0-9_-]{20,}\b/g, "[REDACTED:api-key]"],
  [/\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\b/g, "[REDACTED:jwt]"],
  [
    /\b([A-Za-z0-9_]*(?:TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|CREDENTIALS?)[A-Za-z0-9_]*)=("[^"]*"|'[^']*'|\S+)/gi,
    "$1=[REDACTED]",
  ],
  [/(--?(?:password|passwd|token|secret|api-key|apikey)[= ])("[^"]*"|'[^']*'|\S+)/gi, "$1[REDACTED]"],
];

export function redactString(text: string): string {
  let out = text;
  for (const [pattern, replacement] of SECRET_SHAPES) out = out.replace(pattern, replacement);
  return out;
}

/** A deep copy of `value` with secrets replaced. */
export function redact(value: unknown, key?: string): unknown {
  if (key !== undefined && SECRET_KEY.test(key) && value !== null && typeof value !== "object") {
    return "[REDACTED]";
  }
  if (typeof value === "string") return redactString(value);
  if (Array.isArray(value)) return value.map((v) => redact(v));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redact(v, k)]));
  }
  return value;
}
