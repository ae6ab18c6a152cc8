import type { IncomingMessage } from 'node:http';

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]', '::1'];

/** True when the bind address only accepts local connections. */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_NAMES.includes(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * DNS-rebinding protection: a browser page on evil.example.com whose name resolves to 127.0.0.1
 * still sends `Host: evil.example.com` (and its own Origin), so only names this server is known by
 * are served. Non-browser clients send no Origin; that is allowed.
 */
export class HostGuard {
  readonly #allowed: ReadonlySet<string>;

  constructor(bindHost: string, extraHosts: readonly string[] = []) {
    const names = [...LOOPBACK_NAMES, ...extraHosts.map((h) => h.toLowerCase())];
    if (!isLoopbackHost(bindHost) && bindHost !== '0.0.0.0' && bindHost !== '::') names.push(bindHost);
    this.#allowed = new Set(names);
  }

  /** Null when the request may proceed, else the reason for a 403. */
  check(req: IncomingMessage): string | null {
    const host = req.headers.host;
    if (!host || !this.#allowed.has(hostnameOf(host))) return 'Host header not allowed';
    const origin = req.headers.origin;
    if (origin !== undefined && !this.#originAllowed(origin)) return 'Origin header not allowed';
    return null;
  }

  #originAllowed(origin: string): boolean {
    try {
      const url = new URL(origin);
      return (url.protocol === 'http:' || url.protocol === 'https:') && this.#allowed.has(url.hostname);
    } catch {
      return false;
    }
  }
}

function hostnameOf(host: string): string {
  const lower = host.toLowerCase();
  if (lower.startsWith('[')) {
    const end = lower.indexOf(']');
    return end === -1 ? lower : lower.slice(0, end + 1);
  }
  const colon = lower.indexOf(':');
  return colon === -1 ? lower : lower.slice(0, colon);
}
