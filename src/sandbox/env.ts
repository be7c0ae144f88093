/**
 * Environment scrubbing: the sandboxed command inherits the caller's environment minus every variable
 * whose name looks like it carries a secret, and with the credentials cut out of every URL in the
 * values that remain. Patterns are shell-style globs (`*` and `?`), matched against the whole name,
 * case-insensitively.
 *
 * A URL's credentials are removed, not the variable: `REDIS_URL=redis://:pw@cache:6379/0` becomes
 * `redis://cache:6379/0`, so a command still learns where a service is (and a proxy without
 * credentials keeps working) but never how to log in. The whole user-info part goes, not just the
 * password: tokens travel as the user name too (`https://ghp_...@github.com`).
 */

/** One reviewed name pattern: why it is dropped and names it must catch (each tested). */
export interface SecretEnvPattern {
  pattern: string;
  why: string;
  catches: readonly string[];
}

/** Names that usually hold credentials; `--unset-env` and the settings' `unsetEnv` add to these. */
export const SECRET_ENV_NAMES: readonly SecretEnvPattern[] = [
  {
    pattern: "*TOKEN*",
    why: "bearer and API tokens",
    catches: ["GITHUB_TOKEN", "NPM_TOKEN", "AWS_SESSION_TOKEN"],
  },
  {
    pattern: "*SECRET*",
    why: "client and signing secrets",
    catches: ["AWS_SECRET_ACCESS_KEY", "JWT_SECRET"],
  },
  { pattern: "*PASSWORD*", why: "passwords", catches: ["PGPASSWORD", "DB_PASSWORD", "REDIS_PASSWORD"] },
  { pattern: "*PASSWD*", why: "passwords", catches: ["SMTP_PASSWD"] },
  {
    pattern: "*_PWD",
    why: "passwords spelled PWD (never PWD or OLDPWD)",
    catches: ["MYSQL_PWD", "ORACLE_PWD"],
  },
  { pattern: "*PASSPHRASE*", why: "key passphrases", catches: ["GPG_PASSPHRASE"] },
  {
    pattern: "*_PASS",
    why: "passwords spelled PASS (never GIT_ASKPASS or SSH_ASKPASS)",
    catches: ["DB_PASS", "KEYSTORE_PASS", "SMTP_PASS"],
  },
  { pattern: "*_PASS_*", why: "passwords spelled PASS", catches: ["DB_PASS_PROD"] },
  { pattern: "PASS", why: "a password", catches: ["PASS"] },
  { pattern: "PWD_*", why: "passwords spelled PWD (never PWD itself)", catches: ["PWD_DB"] },
  { pattern: "AUTH", why: "an auth string", catches: ["AUTH"] },
  {
    pattern: "KUBECONFIG_*",
    why: "inline cluster logins (KUBECONFIG itself is a path)",
    catches: ["KUBECONFIG_DATA"],
  },
  {
    pattern: "*KUBE*CONFIG*_DATA",
    why: "a whole kubeconfig inline, base64 or not (CI's KUBE_CONFIG_DATA)",
    catches: ["KUBE_CONFIG_DATA", "PROD_KUBECONFIG_DATA"],
  },
  {
    pattern: "*DOCKER*CONFIG*_DATA",
    why: "a docker client config inline, with its registry logins",
    catches: ["DOCKER_CONFIG_DATA"],
  },
  {
    pattern: "*DOCKER*CONFIG*JSON",
    why: "a docker client config inline (.dockerconfigjson), with its registry logins",
    catches: ["DOCKER_CONFIG_JSON", "DOCKERCONFIGJSON"],
  },
  { pattern: "*CREDENTIAL*", why: "credential files and blobs", catches: ["GOOGLE_APPLICATION_CREDENTIALS"] },
  { pattern: "*_KEY", why: "keys", catches: ["STRIPE_KEY", "OPENAI_KEY"] },
  { pattern: "*_KEY_ID", why: "key ids that pair with a secret", catches: ["AWS_ACCESS_KEY_ID"] },
  { pattern: "*API_KEY*", why: "API keys", catches: ["ANTHROPIC_API_KEY"] },
  { pattern: "*APIKEY*", why: "API keys", catches: ["SENDGRID_APIKEY"] },
  { pattern: "*ACCESS_KEY*", why: "cloud access keys", catches: ["MINIO_ACCESS_KEY"] },
  { pattern: "*PRIVATE_KEY*", why: "private keys inline", catches: ["SSH_PRIVATE_KEY"] },
  { pattern: "*JWT*", why: "signed tokens", catches: ["SUPABASE_JWT", "JWT"] },
  { pattern: "*_AUTH", why: "auth strings", catches: ["npm_config__auth", "NPM_CONFIG_AUTH"] },
  { pattern: "*_AUTH_CONFIG", why: "registry logins", catches: ["DOCKER_AUTH_CONFIG"] },
  { pattern: "*_PAT", why: "personal access tokens", catches: ["AZURE_DEVOPS_EXT_PAT"] },
  { pattern: "*COOKIE*", why: "session cookies", catches: ["SESSION_COOKIE"] },
  { pattern: "*_DSN", why: "connection strings with credentials", catches: ["SENTRY_DSN"] },
  { pattern: "DSN", why: "a connection string with credentials", catches: ["DSN"] },
  { pattern: "*_SK", why: "secret keys spelled SK (Stripe's sk_live_...)", catches: ["STRIPE_SK"] },
  {
    pattern: "*WEBHOOK*",
    why: "webhook URLs, whose path is the secret",
    catches: ["SLACK_WEBHOOK_URL", "DISCORD_WEBHOOK", "WEBHOOK_URL"],
  },
  { pattern: "*BEARER*", why: "bearer credentials", catches: ["BEARER", "API_BEARER"] },
  { pattern: "AUTH_*", why: "auth headers and strings", catches: ["AUTH_HEADER", "AUTH_STRING"] },
  { pattern: "*AUTHORIZATION*", why: "authorization headers", catches: ["HTTP_AUTHORIZATION"] },
  { pattern: "SESSION", why: "a session id or cookie", catches: ["SESSION"] },
  {
    pattern: "*CONNECTION_STRING*",
    why: "connection strings with account keys",
    catches: ["AZURE_STORAGE_CONNECTION_STRING"],
  },
  { pattern: "*_SAS", why: "shared access signatures", catches: ["AZURE_STORAGE_SAS"] },
  { pattern: "*_SESSION", why: "unlocked password-manager sessions", catches: ["BW_SESSION"] },
  { pattern: "OP_SESSION_*", why: "1Password CLI sessions", catches: ["OP_SESSION_my"] },
  { pattern: "*_CREDS", why: "credential blobs", catches: ["GCP_CREDS"] },
  { pattern: "DATABASE_URL", why: "database logins", catches: ["DATABASE_URL"] },
  { pattern: "SSH_AUTH_SOCK", why: "the ssh agent signs for the user", catches: ["SSH_AUTH_SOCK"] },
  { pattern: "GPG_AGENT_INFO", why: "the gpg agent signs for the user", catches: ["GPG_AGENT_INFO"] },
];

/**
 * Words that make a name secret wherever they stand as a part of it (parts are split on `_`):
 * `DB_PASS`, `PASS_DB`, `X_AUTH_Y`, `STRIPE_KEY_LIVE`. A part is matched whole, so `KEYBOARD`,
 * `ASKPASS`, `BYPASS`, `AUTHOR` and `OLDPWD` are other words. `alone: false`: the word by itself is
 * a name commands need (`PWD`).
 */
export interface SecretEnvWord {
  word: string;
  why: string;
  catches: readonly string[];
  alone?: false;
}

export const SECRET_ENV_WORDS: readonly SecretEnvWord[] = [
  {
    word: "PASS",
    why: "a password",
    catches: ["PASS", "DB_PASS", "PASS_DB", "KEYSTORE_PASS", "DB_PASS_PROD"],
  },
  { word: "PASSWD", why: "a password", catches: ["PASSWD", "PASSWD_DB", "SMTP_PASSWD"] },
  { word: "PASSWORD", why: "a password", catches: ["PASSWORD", "PASSWORD_DB"] },
  {
    word: "PWD",
    why: "a password spelled PWD (PWD itself is the working directory)",
    catches: ["PWD_DB", "MYSQL_PWD", "DB_PWD_PROD"],
    alone: false,
  },
  { word: "PASSPHRASE", why: "a key passphrase", catches: ["PASSPHRASE", "KEY_PASSPHRASE_X"] },
  { word: "AUTH", why: "an auth string or header", catches: ["AUTH", "X_AUTH_Y", "AUTH_DB"] },
  { word: "CREDENTIAL", why: "a credential", catches: ["CREDENTIAL", "CREDENTIAL_JSON"] },
  { word: "CREDENTIALS", why: "credentials", catches: ["CREDENTIALS", "SERVICE_CREDENTIALS_B64"] },
  { word: "CREDS", why: "credentials", catches: ["CREDS", "CREDS_JSON"] },
  { word: "SECRET", why: "a secret", catches: ["SECRET", "SECRET_X"] },
  { word: "SECRETS", why: "secrets", catches: ["SECRETS", "APP_SECRETS_JSON"] },
  { word: "TOKEN", why: "a token", catches: ["TOKEN", "TOKEN_X"] },
  { word: "TOKENS", why: "tokens", catches: ["TOKENS", "CI_TOKENS_JSON"] },
  { word: "KEY", why: "a key", catches: ["KEY", "KEY_X", "STRIPE_KEY_LIVE", "API_KEY"] },
  { word: "KEYS", why: "keys", catches: ["KEYS", "SIGNING_KEYS_JSON"] },
  { word: "APIKEY", why: "an API key", catches: ["APIKEY", "APIKEY_PROD"] },
  { word: "PRIVKEY", why: "a private key", catches: ["PRIVKEY", "TLS_PRIVKEY_PEM"] },
  { word: "JWT", why: "a signed token", catches: ["JWT", "JWT_X"] },
];

/** The globs one word stands for: the whole name, or a part at the start, the end or in between. */
export function wordGlobs(entry: SecretEnvWord): string[] {
  const { word } = entry;
  return [...(entry.alone === false ? [] : [word]), `${word}_*`, `*_${word}`, `*_${word}_*`];
}

export const DEFAULT_SECRET_ENV_PATTERNS: readonly string[] = [
  ...SECRET_ENV_NAMES.map((e) => e.pattern),
  ...SECRET_ENV_WORDS.flatMap(wordGlobs),
];

/** Names commands need that no default pattern may catch (tested against every pattern). */
export const NEEDED_ENV_NAMES: readonly string[] = [
  "PATH",
  "HOME",
  "USER",
  "LANG",
  "LC_ALL",
  "TERM",
  "PWD",
  "OLDPWD",
  "SHELL",
  "TZ",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "GIT_AUTHOR_NAME",
  "GIT_AUTHOR_EMAIL",
  "AUTHOR",
  "OAUTHLIB_INSECURE_TRANSPORT",
  "KEYBOARD_LAYOUT",
  "SSH_CONNECTION",
  "XDG_SESSION_ID",
  "XDG_SESSION_TYPE",
  "DBUS_SESSION_BUS_ADDRESS",
  "NODE_OPTIONS",
  "XDG_CURRENT_DESKTOP",
  "GIT_ASKPASS",
  "KUBECONFIG",
  "BYPASS_CACHE",
  "SSH_ASKPASS",
  "REDIS_URL",
  "MONGODB_URI",
  "DOCKER_CONFIG",
  "KEYMAP",
  "XKB_DEFAULT_KEYMAP",
  "PGPASSFILE",
  "HOSTNAME",
];

/** Turns a shell-style glob into an anchored, case-insensitive regular expression. */
export function globToRegExp(glob: string): RegExp {
  const body = glob.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".");
  return new RegExp(`^${body}$`, "i");
}

/** `scheme://userinfo@`: the user-info part of any URL anywhere in a value (several per value too). */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#]*@/gi;
/**
 * `user:password@host` with no scheme at the start of a value: curl, pip and git take a proxy
 * spelled so (`HTTPS_PROXY=user:pass@proxy:3128`). A colon before the `@` tells it from an e-mail
 * address or `git@host:repo`.
 */
const BARE_USERINFO = /^[^\s/:@]+:[^\s/@]*@(?=[^\s/@])/;

/** `value` with the user-info (user name, password, token) removed from every URL in it. Pure. */
export function stripUrlCredentials(value: string): string {
  return value.replace(URL_USERINFO, "$1").replace(BARE_USERINFO, "");
}

export interface ScrubbedEnv {
  env: Record<string, string>;
  /** Names removed, sorted, for the audit record (never the values). */
  removed: string[];
  /** Names kept with the credentials of a URL in their value cut out, sorted. */
  stripped: string[];
}

/**
 * Copies `env` without the variables whose names match any of `patterns`, and with URL credentials
 * cut out of the rest.
 */
export function scrubEnv(env: Record<string, string | undefined>, patterns: readonly string[]): ScrubbedEnv {
  // One alternation instead of one expression per pattern: compiled once, one test per name.
  const matcher = patterns.length === 0
    ? null
    : new RegExp(patterns.map((p) => globToRegExp(p).source).join("|"), "i");
  const kept: Record<string, string> = {};
  const removed: string[] = [];
  const stripped: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (matcher?.test(name)) {
      removed.push(name);
      continue;
    }
    const clean = stripUrlCredentials(value);
    if (clean !== value) stripped.push(name);
    kept[name] = clean;
  }
  return { env: kept, removed: removed.sort(), stripped: stripped.sort() };
}
