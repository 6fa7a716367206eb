/**
 * The design page's "Personalise it" card (./DesignShowPage.tsx; docs/export.md "The screen"):
 * its Parameters list names the text snippets' parameters and the dynamic stickers' (a QR
 * code's value), each once, as the export screen lists them; a countdown that reads no value
 * is left out.
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AnswerOf } from '#shared/contract/index.ts';
import { answer } from '../test/api.ts';
import { aDesignCard, aTeam, aUser } from '../test/fixtures.ts';
import { renderWithProviders } from '../test/TestProviders.tsx';
import { DesignShowPage } from './DesignShowPage.tsx';

const sticker = (uuid: string, kind: string, name: string, extra = {}) => ({
  uuid,
  stickerType: 'dynamicSticker',
  dynamicStickerType: kind,
  dynamicStickerParamName: name,
  dynamicStickerUrl: '',
  ...extra,
});

function aDesign(): AnswerOf<'GET /api/pic-snippet/{id}'> {
  return {
    ...aDesignCard(),
    base_image_url: null,
    image_id: 'image-1',
    base_image_key: 'images/image-1.jpg',
    canvas_width: 900,
    canvas_height: 600,
    text_snippets: [
      {
        id: 'snippet-1',
        parameters: [
          { id: 'p1', param_name: 'first_name', param_default_value: 'there' },
          { id: 'p2', param_name: 'first_name', param_default_value: 'there' },
        ],
      },
    ],
    graphics_data: [
      sticker('q1', 'qrCode', 'qrCode1'),
      sticker('q2', 'qrCode', 'qrCode1'),
      sticker('c1', 'countdown', 'deadline', { countdownMode: 'fixed' }),
      sticker('c2', 'countdown', 'signed_up', { countdownMode: 'evergreen' }),
      { uuid: 's1', stickerType: 'sticker' },
    ],
  };
}

describe('the design page', () => {
  it("lists the text parameters and the dynamic stickers' parameters, each once", async () => {
    answer('GET /api/pic-snippet/{id}', 200, aDesign());
    answer('GET /settings/companies/current', 200, aTeam());
    renderWithProviders(<DesignShowPage />, {
      route: '/pic-snippet/design-1',
      path: '/pic-snippet/:id',
      signedInAs: aUser(),
    });
    const label = await screen.findByText('Parameters');
    const list = label.parentElement!.querySelector('ul')!;
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['first_name', 'qrCode1', 'signed_up']);
  });

  it('calls its counts opens and mail-proxy fetches, and says when they were counted', async () => {
    const countedAt = new Date(Date.now() - 5 * 60_000).toISOString();
    answer('GET /api/pic-snippet/{id}', 200, {
      ...aDesign(),
      counter: 1234,
      proxy_fetches: 1,
      counted_at: countedAt,
    });
    answer('GET /settings/companies/current', 200, aTeam());
    renderWithProviders(<DesignShowPage />, {
      route: '/pic-snippet/design-1',
      path: '/pic-snippet/:id',
      signedInAs: aUser(),
    });
    expect((await screen.findByTestId('design-opens')).textContent).toBe('1,234 Opens');
    expect(screen.getByTestId('design-proxy-fetches').textContent).toBe('1 Mail-proxy fetch');
    expect(screen.getByTestId('design-counted').textContent).toBe('counted 5 minutes ago');
  });
});
