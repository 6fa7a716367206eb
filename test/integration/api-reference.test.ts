/**
 * The developer API's reference on the local stack (docs/developer-api.md): `GET
 * /api/openapi.json` answers the OpenAPI document as JSON, cacheable briefly; `GET /api/docs`
 * answers the viewer page as HTML to a browser navigation, with its own Content-Security-Policy
 * (functions/system/docs-page.ts): scripts from the origin only, no inline script.
 */
import { describe, expect, it } from 'vitest';
import { api, useLocalStack } from '../support/stack.ts';
import { DOCS_CONTENT_SECURITY_POLICY, VIEWER_SCRIPT_PATHS } from '#functions/system/docs-page.ts';

const stack = useLocalStack();

describe('the API reference', () => {
  it('answers the OpenAPI document as JSON, cacheable briefly', async () => {
    const res = await api(stack(), 'GET', '/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(res.json.openapi).toBe('3.1.0');
    expect(Object.keys(res.json.paths as object)).toContain('/api/pic-snippet/{id}');
  });

  it('answers the viewer page to a browser navigation, under its own policy', async () => {
    const res = await fetch(`${stack().url}/api/docs`, {
      headers: { accept: 'text/html,application/xhtml+xml' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toBe(DOCS_CONTENT_SECURITY_POLICY);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await res.text();
    for (const path of VIEWER_SCRIPT_PATHS)
      expect(html).toContain(`<script src="${path}"></script>`);
    expect(html).toContain('data-url="/api/openapi.json"');
    // No inline script: every <script> is empty or loads a file.
    for (const [, body] of html.matchAll(/<script\b[^>]*>([^<]*)<\/script>/g))
      expect(body!.trim()).toBe('');
  });
});
