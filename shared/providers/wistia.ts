/**
 * Wistia (docs/providers.md "Wistia"): the personalised image becomes the video's thumbnail
 * through the `stillUrl` embed option, set by a script beside the pasted embed code; values come
 * from the page's address (page.ts). `wemail=` is Wistia's own page parameter naming the viewer
 * (their e-mail), so it is offered as a source, e.g. for a Gravatar sticker.
 */
import { pageProvider } from './page.ts';

export const wistia = pageProvider(
  { value: 'wistia', label: 'Wistia', url: 'https://wistia.com' },
  [["Viewer's e-mail (wemail)", 'wemail']],
);

/**
 * The media id of a pasted Wistia embed code (`wistia_async_{id}`, `…/embed/medias/{id}.jsonp`
 * or `…/embed/iframe/{id}`), or undefined when there is none.
 */
export function wistiaMediaId(embedCode: string): string | undefined {
  const m =
    /wistia_async_([A-Za-z0-9]+)/.exec(embedCode) ??
    /\/embed\/(?:medias|iframe)\/([A-Za-z0-9]+)/.exec(embedCode);
  return m?.[1];
}
