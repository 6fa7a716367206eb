/**
 * Test helper: plays the part of the platforms of the export screen (docs/export.md). An e-mail
 * platform replaces each merge tag in the render URL by the recipient's value, as that platform
 * encodes it (`Provider.substitute`); the mail client or browser then normalises the URL (WHATWG
 * URL). A web page (mywebsite, Wistia, Vidalytics) carries the values in its own address and
 * the real web-tracking script builds the URL, run here in a small fake DOM.
 */
import vm from 'node:vm';
import { buildRenderUrl, pageParameterList, type RenderUrlInput } from '#shared/export-url.ts';
import type { Provider } from '#shared/providers/index.ts';
import { WEB_TRACKING_SCRIPT } from '#shared/web-tracking-script.ts';

/** A fake DOM image for the web-tracking script. */
export function fakeImage(attributes: Record<string, string>) {
  const attrs: Record<string, string> = { ...attributes };
  return {
    attrs,
    getAttribute: (name: string) => attrs[name] ?? null,
    setAttribute: (name: string, value: string) => {
      attrs[name] = value;
    },
    hasAttribute: (name: string) => name in attrs,
  };
}

/** Runs scripts as a browser would on `pageUrl`, with the given tagged images; returns `window`. */
export function runInPage(
  scripts: string[],
  pageUrl: string,
  images: ReturnType<typeof fakeImage>[],
  storage = new Map<string, string>(),
): Record<string, unknown> {
  const window: Record<string, unknown> = {
    location: new URL(pageUrl),
    localStorage: {
      getItem: (k: string) => storage.get(k) ?? null,
      setItem: (k: string, v: string) => void storage.set(k, String(v)),
    },
  };
  const document = {
    readyState: 'complete',
    querySelectorAll: () => images,
    addEventListener: () => undefined,
  };
  const context = vm.createContext({ window, document, URLSearchParams, JSON });
  for (const script of scripts) vm.runInContext(script, context);
  return window;
}

/**
 * The URL the render service gets when a recipient with `values` (one per text parameter, in
 * order) opens the e-mail or page.
 */
export function deliver(provider: Provider, input: RenderUrlInput, values: string[]): URL {
  if (provider.source === 'page') {
    const page = new URL('https://shop.example.com/welcome');
    input.parameters.forEach((p, i) => {
      const name = provider.parseTag(p.merge_tag_value ?? '')?.field ?? p.param_name;
      page.searchParams.set(name, values[i]!);
    });
    const img = fakeImage({
      'data-picsnippet': buildRenderUrl(input),
      'data-picsnippet-params': pageParameterList(input.parameters),
    });
    runInPage([WEB_TRACKING_SCRIPT], page.href, [img]);
    return new URL(img.attrs.src!);
  }
  let text = buildRenderUrl(input);
  input.parameters.forEach((p, i) => {
    const tag = provider.parseTag(p.merge_tag_value!)!;
    // A function, so that `$` in a value is not read as a replacement pattern.
    text = text.replace(provider.urlTag(tag.field, tag.fallback ?? ''), () =>
      provider.substitute(values[i]!),
    );
  });
  return new URL(text);
}
