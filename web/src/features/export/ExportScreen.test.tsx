/**
 * The export screen's shortcuts for a daily export (docs/export.md "The screen"): a design never
 * exported opens with the team's last platform and says so; values whose names match the
 * platform's fields are filled and marked; a dynamic sticker left empty says it draws the
 * editor's value; choosing a platform matches again, stickers included; a value typed over a
 * match loses the mark.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { providerOf } from '#shared/providers/index.ts';
import { renderWithProviders } from '../../test/TestProviders.tsx';
import { answer } from '../../test/api.ts';
import { descriptionOf } from '../../test/expectations.ts';
import { aMergeTagList, aUser } from '../../test/fixtures.ts';
import { toExportDesign } from './api.ts';
import { ExportScreen } from './ExportScreen.tsx';
import { CUSTOM_DATA_MODAL_KEY, withTeamPlatform } from './model.ts';

function design() {
  return toExportDesign({
    id: 'd1',
    title: 'Welcome',
    version: 3,
    base_url: 'https://cdn.example.com/r/abc',
    canvas_width: 600,
    canvas_height: 400,
    merge_tag_provider: null,
    merge_tag_choices: [],
    text_snippets: [
      {
        text: 'Hi {{first_name}}, {{favourite}}',
        parameters: [
          {
            id: 'p1',
            param_name: 'first_name',
            param_default_value: 'there',
            merge_tag_value: null,
          },
          { id: 'p2', param_name: 'favourite', param_default_value: 'tea', merge_tag_value: null },
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
      {
        uuid: 'g1',
        stickerType: 'dynamicSticker',
        dynamicStickerType: 'gravatar',
        dynamicStickerParamName: 'email',
        dynamicStickerUrl: 'ann@example.com',
      },
    ],
  });
}

const saved = (provider: string | null) => ({
  success: true as const,
  version: 4,
  title: 'Welcome',
  updated_at: '2026-11-28T12:00:00.000Z',
  merge_tag_provider: provider,
  merge_tag_storefront: null,
  merge_tag_choices: [],
  html_link_url: null,
  merge_tag_values: {},
});

function open(
  team: { export_provider: string | null; export_storefront: string | null },
  start = design(),
) {
  window.localStorage.setItem(CUSTOM_DATA_MODAL_KEY, '0');
  const { design: opened, fromTeam } = withTeamPlatform(start, team);
  const provider = answer(
    'PUT /api/pic-snippet/{id}/provider',
    200,
    saved(opened.merge_tag_provider),
  );
  const tags = answer('POST /api/merge-tag', 200, aMergeTagList(opened.merge_tag_provider ?? ''));
  answer('PUT /api/pic-snippet/{id}/choices', 200, saved(opened.merge_tag_provider));
  const rendered = renderWithProviders(
    <ExportScreen design={opened} team={null} storeFronts={[]} platformFromTeam={fromTeam} />,
    { signedInAs: aUser() },
  );
  return { ...rendered, provider, tags };
}

const valueEditor = (name: string) => screen.getByTestId(`value-${name}`);
const valueIn = (el: HTMLElement) => (el as HTMLInputElement | HTMLSelectElement).value;
const valueOf = (name: string) =>
  within(valueEditor(name)).getByRole('textbox', { name: `Value of ${name}` });

describe('the export screen for a daily export', () => {
  it("opens a design never exported with the team's last platform, saved as the design's", async () => {
    const { provider } = open({ export_provider: 'klaviyo', export_storefront: null });
    const platform = screen.getByRole('combobox', { name: 'Platform' });
    expect(valueIn(platform)).toBe('klaviyo');
    expect(descriptionOf(platform)).toBe(
      "Your team's last platform. Values whose names match its fields are filled in.",
    );
    await waitFor(() => expect(provider.requests).toHaveLength(1));
    expect(provider.requests[0]!.body).toMatchObject({ merge_tag_provider: 'klaviyo' });
  });

  it('fills the values whose names match a field and marks them; stickers keep the editor value', async () => {
    open({ export_provider: 'klaviyo', export_storefront: null });
    await waitFor(() =>
      expect(valueIn(valueOf('first_name'))).toBe(providerOf('klaviyo').mergeTag('first_name')),
    );
    expect(within(valueEditor('first_name')).getByText('Matched by name')).toBeTruthy();
    expect(valueIn(valueOf('favourite'))).toBe('');
    expect(within(valueEditor('favourite')).queryByText('Matched by name')).toBeNull();
    // The team's platform counts as chosen: a sticker's value is matched too.
    expect(valueIn(valueOf('email'))).toBe(providerOf('klaviyo').mergeTag('email'));
    expect(valueOf('qrCode1').getAttribute('placeholder')).toBe('https://shop.example/offer');
    expect(
      within(valueEditor('qrCode1')).getByText(
        /Left empty: the editor's value, “https:\/\/shop\.example\/offer”\./,
      ),
    ).toBeTruthy();
  });

  it('loses the mark when the value is typed over', async () => {
    const { user } = open({ export_provider: 'klaviyo', export_storefront: null });
    await waitFor(() =>
      expect(within(valueEditor('first_name')).getByText('Matched by name')).toBeTruthy(),
    );
    await user.clear(valueOf('first_name'));
    await user.type(valueOf('first_name'), 'Ann');
    expect(within(valueEditor('first_name')).queryByText('Matched by name')).toBeNull();
    expect(valueIn(valueOf('first_name'))).toBe('Ann');
  });

  it("matches again on a platform chosen, the stickers' values too", async () => {
    const { user, provider } = open({ export_provider: null, export_storefront: null });
    const platform = screen.getByRole('combobox', { name: 'Platform' });
    expect(valueIn(platform)).toBe('');
    expect(descriptionOf(platform)).toBe('');
    expect(provider.requests).toHaveLength(0);
    answer('POST /api/merge-tag', 200, aMergeTagList('klaviyo'));
    await user.selectOptions(platform, 'klaviyo');
    await waitFor(() =>
      expect(valueIn(valueOf('email'))).toBe(providerOf('klaviyo').mergeTag('email')),
    );
    expect(within(valueEditor('email')).getByText('Matched by name')).toBeTruthy();
    expect(valueIn(valueOf('first_name'))).toBe(providerOf('klaviyo').mergeTag('first_name'));
    expect(valueIn(valueOf('qrCode1'))).toBe('');
  });

  it("reopened on its platform, fills an empty text value but leaves a sticker's empty value as the editor's", async () => {
    open(
      { export_provider: 'shopify', export_storefront: null },
      { ...design(), merge_tag_provider: 'klaviyo' },
    );
    const platform = screen.getByRole('combobox', { name: 'Platform' });
    expect(valueIn(platform)).toBe('klaviyo');
    expect(descriptionOf(platform)).toBe('');
    await waitFor(() =>
      expect(valueIn(valueOf('first_name'))).toBe(providerOf('klaviyo').mergeTag('first_name')),
    );
    expect(valueIn(valueOf('email'))).toBe('');
    expect(
      within(valueEditor('email')).getByText(
        /Left empty: the editor's value, “ann@example\.com”\./,
      ),
    ).toBeTruthy();
    expect(valueOf('qrCode1').getAttribute('placeholder')).toBe('https://shop.example/offer');
  });
});
