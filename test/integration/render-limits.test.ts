/**
 * Render limits through the real handler (docs/security.md "Render limits"): the edge's count
 * header and the user agent reach the render service. An address the edge counted over its
 * budget gets the fallback for new draws; a mail proxy is never refused for that, since it
 * fetches for many recipients. Every answer is an image.
 */
import { describe, expect, it } from 'vitest';
import { EDGE_RATE_EXCEEDED, EDGE_RATE_HEADER } from '#shared/render-limits.ts';
import { useLocalStack } from '../support/stack.ts';

const stack = useLocalStack();
const GMAIL =
  'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)';

async function render(name: string, headers: Record<string, string>) {
  const res = await fetch(`${stack().url}/r/demo-welcome.jpg?first_name=${name}`, { headers });
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    cacheControl: res.headers.get('cache-control'),
  };
}

describe('render limits', () => {
  it('serves the fallback image, uncached, to an address the edge counted over its budget', async () => {
    const answer = await render(`Edge${Date.now()}`, { [EDGE_RATE_HEADER]: EDGE_RATE_EXCEEDED });
    expect(answer).toMatchObject({ status: 200, type: 'image/jpeg', cacheControl: 'no-store' });
  });

  it('draws for a mail proxy even when the edge counted its address', async () => {
    const answer = await render(`Proxy${Date.now()}`, {
      [EDGE_RATE_HEADER]: EDGE_RATE_EXCEEDED,
      'user-agent': GMAIL,
    });
    expect(answer.status).toBe(200);
    expect(answer.type).toBe('image/jpeg');
    expect(answer.cacheControl).not.toContain('no-store');
  });
});
