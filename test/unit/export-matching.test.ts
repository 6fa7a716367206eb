/**
 * The export screen's shortcuts for a daily export (docs/export.md "The screen"): a value whose
 * parameter name matches a platform's field is filled with that field, and a design never
 * exported opens with the platform its team chose last.
 */
import { describe, expect, it } from 'vitest';
import { providerOf } from '#shared/providers/index.ts';
import { toExportDesign } from '../../web/src/features/export/api.ts';
import {
  exportRows,
  matchRowsByName,
  tagMatching,
  withTeamPlatform,
} from '../../web/src/features/export/model.ts';

const klaviyo = providerOf('klaviyo');
const KLAVIYO_TAGS = klaviyo.catalogue();
const SHOPIFY_TAGS = providerOf('shopify').catalogue();
const KEAP_TAGS = providerOf('infusionsoft').catalogue();

function design(extra: Record<string, unknown> = {}) {
  return toExportDesign({
    id: 'd1',
    title: 'Welcome',
    version: 3,
    base_url: 'https://cdn.example.com/r/abc',
    canvas_width: 600,
    canvas_height: 400,
    text_snippets: [
      {
        text: 'Hi {{first_name}} from {{Shop}}',
        parameters: [
          {
            id: 'p1',
            param_name: 'first_name',
            param_default_value: 'there',
            merge_tag_value: null,
          },
          { id: 'p2', param_name: 'Shop', param_default_value: 'us', merge_tag_value: null },
        ],
      },
    ],
    graphics_data: [
      {
        uuid: 'q1',
        stickerType: 'dynamicSticker',
        dynamicStickerType: 'qrCode',
        dynamicStickerParamName: 'qrCode1',
        dynamicStickerUrl: 'https://shop.example/offer',
      },
    ],
    ...extra,
  });
}

describe('a merge field matching a parameter by name', () => {
  it('matches a label or a field, without case, spaces or underscores', () => {
    expect(tagMatching(klaviyo, 'first_name', KLAVIYO_TAGS)?.merge_tag_name).toBe('First name');
    expect(tagMatching(klaviyo, 'FirstName', KLAVIYO_TAGS)?.merge_tag_name).toBe('First name');
    expect(tagMatching(klaviyo, 'first name', KLAVIYO_TAGS)?.merge_tag_name).toBe('First name');
  });

  it("matches a dotted field by its last part (Shopify's customer.first_name, Keap's Contact.FirstName)", () => {
    const shopify = tagMatching(providerOf('shopify'), 'first_name', SHOPIFY_TAGS);
    expect(shopify?.merge_tag_value).toContain('customer.first_name');
    const keap = tagMatching(providerOf('infusionsoft'), 'first_name', KEAP_TAGS);
    expect(keap?.merge_tag_value).toContain('Contact.FirstName');
  });

  it('matches nothing for a name no field has, or an empty one', () => {
    expect(tagMatching(klaviyo, 'favourite_colour', KLAVIYO_TAGS)).toBeUndefined();
    expect(tagMatching(klaviyo, '__', KLAVIYO_TAGS)).toBeUndefined();
  });

  it('matches nothing when two different fields would fit', () => {
    const tags = [
      { merge_tag_name: 'City', merge_tag_value: '{{ person.city }}' },
      { merge_tag_name: 'city', merge_tag_value: '{{ organization.city }}' },
    ];
    expect(tagMatching(klaviyo, 'city', tags)).toBeUndefined();
  });

  it('fills empty values only, and gives back the same rows when nothing matched', () => {
    const rows = exportRows(design());
    const typed = rows.map((r) =>
      r.param_name === 'Shop' ? { ...r, merge_tag_value: 'Acme' } : r,
    );
    const filled = matchRowsByName('klaviyo', typed, KLAVIYO_TAGS);
    expect(filled.find((r) => r.param_name === 'first_name')).toMatchObject({
      merge_tag_name: 'First name',
      merge_tag_value: klaviyo.mergeTag('first_name'),
    });
    expect(filled.find((r) => r.param_name === 'Shop')?.merge_tag_value).toBe('Acme');
    expect(filled.find((r) => r.param_name === 'qrCode1')?.merge_tag_value).toBe('');
    const none = [{ merge_tag_name: 'Phone', merge_tag_value: '{{ phone_number }}' }];
    expect(matchRowsByName('klaviyo', typed, none)).toBe(typed);
  });
});

describe("the team's last platform", () => {
  const team = { export_provider: 'klaviyo', export_storefront: 'shopify' };

  it('opens a design never exported with it, the Klaviyo store front included', () => {
    const opened = withTeamPlatform(design(), team);
    expect(opened.fromTeam).toBe(true);
    expect(opened.design).toMatchObject({
      merge_tag_provider: 'klaviyo',
      merge_tag_storefront: 'shopify',
    });
    const shopify = withTeamPlatform(design(), { ...team, export_provider: 'shopify' });
    expect(shopify.design.merge_tag_storefront).toBeNull();
  });

  it('keeps a design that was exported: a platform, a value or a saved choice', () => {
    for (const extra of [
      { merge_tag_provider: 'manychat' },
      { merge_tag_choices: [{ key: 'qrCode1', merge_tag_name: '', merge_tag_value: 'x' }] },
      {
        text_snippets: [
          {
            parameters: [
              { id: 'p1', param_name: 'n', param_default_value: '', merge_tag_value: 'Ann' },
            ],
          },
        ],
      },
    ]) {
      const opened = withTeamPlatform(design(extra), team);
      expect(opened.fromTeam, JSON.stringify(extra)).toBe(false);
      expect(opened.design.merge_tag_provider).toBe(extra.merge_tag_provider ?? null);
    }
  });

  it('keeps Custom for a team without one, or with a platform no longer offered', () => {
    expect(withTeamPlatform(design(), null).fromTeam).toBe(false);
    expect(
      withTeamPlatform(design(), { export_provider: null, export_storefront: null }).fromTeam,
    ).toBe(false);
    expect(
      withTeamPlatform(design(), { export_provider: 'mailchimp', export_storefront: null })
        .fromTeam,
    ).toBe(false);
  });
});
