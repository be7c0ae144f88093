/** The network allow-list's matching, pure: the proxy enforces it and decisions explain with it. */

/**
 * Is `host:port` allowed? Entries: `example.com` (any port), `*.example.com` (subdomains only),
 * `example.com:443` (that port). Case-insensitive; IPv6 literals may be bracketed. Pure.
 */
export function isHostAllowed(host: string, port: number, allowList: readonly string[]): boolean {
  const wanted = host.toLowerCase().replace(/^\[(.*)\]$/, "$1");
  return allowList.some((raw) => {
    const entry = raw.toLowerCase().trim();
    const portMatch = /^(.*):(\d+)$/.exec(entry);
    const pattern = (portMatch && !entry.startsWith("[") ? portMatch[1]! : entry).replace(/^\[(.*)\]$/, "$1");
    if (portMatch && !entry.startsWith("[") && Number(portMatch[2]) !== port) return false;
    if (pattern.startsWith("*.")) {
      return wanted.endsWith(pattern.slice(1)) && wanted.length > pattern.length - 1;
    }
    return wanted === pattern;
  });
}
