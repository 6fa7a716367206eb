/**
 * Faults under load on the render URL (docs/operations.md "Health"; docs/security.md): Chromium
 * killed in the middle of a burst of renders. Every request still answers an image (a real
 * render, or the all-fallback render with `no-store` where one had to give way), the renderer is
 * relaunched without a request asking for it, and health says so while it waits. The figures
 * (answers by kind, time until the renderer is back) are printed, not asserted as times.
 */
import { describe, expect, it } from 'vitest';
import { fetchImage, pollUntil, useLocalStack } from '../support/stack.ts';

const stack = useLocalStack();

async function health(): Promise<{ status: number; body: string }> {
  const res = await fetch(`${stack().url}/api/health`);
  return { status: res.status, body: await res.text() };
}

describe('Chromium killed under load', () => {
  it('answers every request with an image, and health waits for the relaunch', async () => {
    const { getBrowser } = await import('#functions/render/browser.ts');
    const browser = await getBrowser();
    let answered = 0;
    const burst = Array.from({ length: 12 }, (_, i) =>
      fetchImage(`${stack().url}/r/demo-welcome.jpg?first_name=Burst${i}${Date.now()}`).finally(
        () => (answered += 1),
      ),
    );
    // In the middle of the burst: the renderer has drawn for it (an answer came), more to come.
    await pollUntil(
      'a first answer of the burst',
      () => Promise.resolve(answered),
      (n) => n > 0,
      { intervalMs: 5 },
    );
    const answeredBeforeKill = answered;
    const killedAt = Date.now();
    browser.process()?.kill('SIGKILL');

    // Health reports the renderer as relaunching, then ready again.
    const seen: string[] = [];
    let backAfterMs: number | undefined;
    while (Date.now() - killedAt < 60_000) {
      const h = await health();
      seen.push(`${h.status} ${h.body}`);
      if (h.status === 200 && seen.some((s) => s.startsWith('503 '))) {
        backAfterMs = Date.now() - killedAt;
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(seen.some((s) => s.startsWith('503 ') && s.includes('renderer: '))).toBe(true);
    expect(backAfterMs).toBeDefined();

    const answers = await Promise.all(burst);
    for (const a of answers) {
      expect(a.res.status).toBe(200);
      expect(a.res.headers.get('content-type')).toBe('image/jpeg');
      expect(a.width).toBeGreaterThan(100);
    }
    const fallbacks = answers.filter((a) => a.res.headers.get('cache-control') === 'no-store');
    console.log(
      `Chromium killed under load: ${answers.length} answers, ${answers.length - fallbacks.length} ` +
        `real renders, ${fallbacks.length} fallbacks (no-store), ${answeredBeforeKill} answered ` +
        `before the kill; renderer back after ${backAfterMs} ms`,
    );

    // After the relaunch, a new value is a real render again.
    const after = await fetchImage(`${stack().url}/r/demo-welcome.jpg?first_name=AfterKill`);
    expect(after.res.status).toBe(200);
    expect(after.res.headers.get('cache-control')).not.toBe('no-store');
  });
});
