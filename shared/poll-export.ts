/**
 * A poll in the export's e-mail HTML (docs/polls.md "In the e-mail"): under the design's image,
 * one button per answer, each linking to the design's link with `__vote={k}`. Buttons, not an
 * image map over the image: a map's areas are in the image's own pixels and do not follow an
 * image scaled to its column (every responsive e-mail), and some clients drop `<map>`; a table
 * of links works in every client, reads well with images off, and is announced by screen
 * readers (test/unit/poll-export.test.ts).
 */
import { escapeAttribute } from './export-url.ts';

/** One answer's button: its label and where a click goes (the vote link). */
export interface PollButton {
  label: string;
  href: string;
}

/** The button's colours (the poll's bar colour and white text by default). */
export interface PollButtonStyle {
  background: string;
  color: string;
}

/**
 * The vote link of answer `option` (0-based): the design's link (`/l/…`, with the image's query)
 * with `__vote={option}` added. A signed link must be signed with `__vote` among its parameters
 * (docs/polls.md "Voting"), so this is for unsigned designs and for merge-tag links.
 */
export function pollVoteLink(link: string, option: number): string {
  const hash = link.indexOf('#');
  const base = hash < 0 ? link : link.slice(0, hash);
  const join = base.includes('?') ? (base.endsWith('?') || base.endsWith('&') ? '' : '&') : '?';
  return `${base}${join}__vote=${Math.max(0, Math.floor(option))}`;
}

/** Escapes text for HTML element content. */
const escapeText = (value: string): string =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The answers as a row of buttons under `imageHtml` (the export's image snippet), in a table
 * that e-mail clients lay out alike (one cell per answer, wrapping to one per row on narrow
 * screens is left to the client). Labels and links are escaped.
 */
export function buildPollHtml(
  imageHtml: string,
  buttons: readonly PollButton[],
  style: PollButtonStyle,
  align: 'left' | 'center' | 'right' = 'center',
): string {
  const cells = buttons
    .map(
      (b) =>
        `<td style="padding:4px"><a href="${escapeAttribute(b.href)}" target="_blank" rel="noopener" style="display:inline-block;padding:10px 18px;border-radius:6px;background:${escapeAttribute(style.background)};color:${escapeAttribute(style.color)};font-family:Arial,Helvetica,sans-serif;font-size:16px;font-weight:bold;text-decoration:none">${escapeText(b.label)}</a></td>`,
    )
    .join('');
  return `${imageHtml}\n<table role="presentation" align="${align}" cellpadding="0" cellspacing="0" border="0" style="margin:8px auto"><tr>${cells}</tr></table>`;
}
