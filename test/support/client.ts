/**
 * A browser-like API client for tests: keeps cookies, sends the XHR and CSRF headers the SPA
 * sends (docs/adr/0009-sessions-and-csrf.md "Sessions and CSRF": "Requests carry an XHR header and
 * a CSRF token header").
 */
export class TestClient {
  readonly cookies = new Map<string, string>();
  constructor(readonly baseUrl: string) {}

  private store(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (attrs.some((a) => /max-age=0/i.test(a.trim())) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  /**
   * Sends a request: a `FormData` body goes as multipart (fetch sets the boundary), anything
   * else as JSON; `csrf: false` leaves out the CSRF and XHR headers.
   */
  async request(
    method: string,
    path: string,
    body?: unknown,
    options: { csrf?: boolean; headers?: Record<string, string> } = {},
  ): Promise<{ status: number; headers: Headers; json: Record<string, unknown> }> {
    if (method !== 'GET' && !this.cookies.has('XSRF-TOKEN') && options.csrf !== false) {
      await this.request('GET', '/user/current');
    }
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (options.csrf !== false) {
      headers['x-requested-with'] = 'XMLHttpRequest';
      const token = this.cookies.get('XSRF-TOKEN');
      if (token) headers['x-xsrf-token'] ??= token;
    }
    if (this.cookies.size > 0) {
      headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    }
    const multipart = body instanceof FormData;
    if (body !== undefined && !multipart) headers['content-type'] = 'application/json';
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      redirect: 'manual',
      ...(body === undefined ? {} : { body: multipart ? body : JSON.stringify(body) }),
    });
    this.store(res);
    const text = await res.text();
    let json: Record<string, unknown>;
    try {
      json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      json = { text };
    }
    return { status: res.status, headers: res.headers, json };
  }

  /** Signs in with the demo password. */
  async login(email: string, password = 'demo-password') {
    return this.request('POST', '/login', { email, password });
  }
}
