/**
 * A poll in the export's e-mail HTML (shared/poll-export.ts; docs/polls.md "In the e-mail"): each
 * answer's vote link, and the buttons under the image, escaped.
 */
import { describe, expect, it } from 'vitest';
import { buildPollHtml, pollVoteLink } from '#shared/poll-export.ts';
import { DEFAULT_VIDALYTICS_OPTIONS } from '#shared/providers/index.ts';
import { toExportDesign } from '../../web/src/features/export/api.ts';
import {
  exportRows,
  generateOutputs,
  type GenerateOptions,
} from '../../web/src/features/export/model.ts';

describe('poll vote links', () => {
  it('add the answer to the design’s link, whatever its query', () => {
    expect(pollVoteLink('https://x.example/l/abc', 0)).toBe('https://x.example/l/abc?__vote=0');
    expect(pollVoteLink('https://x.example/l/abc?email={{ email }}', 2)).toBe(
      'https://x.example/l/abc?email={{ email }}&__vote=2',
    );
    expect(pollVoteLink('https://x.example/l/abc?', 1)).toBe('https://x.example/l/abc?__vote=1');
    expect(pollVoteLink('https://x.example/l/abc?a=1#top', 1)).toBe(
      'https://x.example/l/abc?a=1&__vote=1',
    );
  });
});

describe('poll buttons', () => {
  it('put one escaped button per answer under the image', () => {
    const html = buildPollHtml(
      '<div><img src="x"></div>',
      [
        { label: 'Red & <b>', href: 'https://x.example/l/a?e=1&__vote=0' },
        { label: 'Blue', href: 'https://x.example/l/a?e=1&__vote=1' },
      ],
      { background: '#4f7cff', color: '#ffffff' },
    );
    expect(html.startsWith('<div><img src="x"></div>\n<table role="presentation"')).toBe(true);
    expect(html.match(/<a /g)).toHaveLength(2);
    expect(html).toContain('>Red &amp; &lt;b&gt;</a>');
    expect(html).toContain('href="https://x.example/l/a?e=1&amp;__vote=1"');
    expect(html).not.toContain('<b>');
  });
});

describe('a poll on the export screen', () => {
  const pollDesign = (extra: Record<string, unknown> = {}) =>
    toExportDesign({
      id: 'd1',
      title: 'Poll',
      version: 3,
      base_url: 'https://cdn.example.com/r/poll-1',
      canvas_width: 600,
      canvas_height: 400,
      merge_tag_provider: 'mailchimp',
      text_snippets: [{ parameters: [{ id: 'p1', param_name: 'email', param_default_value: '' }] }],
      graphics_data: [
        {
          uuid: 'poll',
          stickerType: 'dynamicSticker',
          dynamicStickerType: 'poll',
          poll: { options: [{ label: 'Yes' }, { label: 'No' }], bar_fill: '#123456' },
        },
      ],
      ...extra,
    });
  const options = (provider: string): GenerateOptions => ({
    provider,
    rows: exportRows(pollDesign()).map((r) => ({ ...r, merge_tag_value: '*|EMAIL|*' })),
    pdf: false,
    width: 100,
    align: 'center',
    link: '',
    embedCode: '',
    vidalytics: DEFAULT_VIDALYTICS_OPTIONS,
    origin: 'https://cdn.example.com',
    alt: 'Poll',
    cacheId: 'v3',
  });

  it('writes a vote button per answer under the e-mail image, on the design’s link', () => {
    const out = generateOutputs(pollDesign(), options('mailchimp'));
    expect(out.html).toContain('>Yes</a>');
    expect(out.html).toContain('>No</a>');
    expect(out.html).toContain('background:#123456');
    const hrefs = [...out.html!.matchAll(/<a href="([^"]*)"/g)].map((m) => m[1]);
    expect(hrefs).toEqual([
      'https://cdn.example.com/l/poll-1/v3?email=*|EMAIL|*&amp;__vote=0',
      'https://cdn.example.com/l/poll-1/v3?email=*|EMAIL|*&amp;__vote=1',
    ]);
  });

  it('adds no buttons for a web page, or for a design that requires signed URLs', () => {
    const page = generateOutputs(pollDesign(), { ...options('mywebsite'), rows: [] });
    expect(page.html ?? '').not.toContain('__vote');
    const signed = generateOutputs(pollDesign({ require_signed_urls: true }), options('mailchimp'));
    expect(signed.html ?? '').not.toContain('__vote');
  });

  it('signs a signed design’s answer links with their own signature, first', () => {
    const signed = generateOutputs(pollDesign({ require_signed_urls: true }), {
      ...options('mailchimp'),
      signature: '__sf=names&__sig=IMAGE',
      voteSignature: '__sf=names&__sig=VOTE',
    });
    expect(signed.link).toBe(
      'https://cdn.example.com/r/poll-1/v3?__sf=names&__sig=IMAGE&email=*|EMAIL|*',
    );
    const hrefs = [...signed.html!.matchAll(/<a href="([^"]*)"/g)].map((m) => m[1]);
    expect(hrefs).toEqual([
      'https://cdn.example.com/l/poll-1/v3?__sf=names&amp;__sig=VOTE&amp;email=*|EMAIL|*&amp;__vote=0',
      'https://cdn.example.com/l/poll-1/v3?__sf=names&amp;__sig=VOTE&amp;email=*|EMAIL|*&amp;__vote=1',
    ]);
  });
});
