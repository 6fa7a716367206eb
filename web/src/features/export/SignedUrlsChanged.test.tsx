/**
 * "Require signed URLs" changed on the export screen (docs/export.md "Animated designs",
 * docs/polls.md "In the e-mail"): Generate follows the box as it is, not as the design loaded.
 * A GIF design gets the still (`.jpg` path) while it is on and the `.gif` (and its notice) when
 * it is off, turned off on the screen included; a poll design loaded signed and turned off gets
 * its answer buttons.
 */
import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { openExportScreen } from '../../test/exportScreen.ts';
import { answer } from '../../test/api.ts';

const open = openExportScreen;

const notice = () => screen.queryByText('An animated GIF in e-mail');
const gifPhoto = { base_image_key: 'uploads/u1/dance.gif' };

const BASE = 'https://cdn.example.com/r/abc';

/** Turns "Require signed URLs" to `on` (its save answered) and waits for the save to finish. */
async function requireSigned(user: ReturnType<typeof open>['user'], on: boolean) {
  answer('PUT /api/pic-snippet/{id}/signing', 200, {
    success: true,
    version: 4,
    title: 'Dance',
    updated_at: '2026-11-29T06:00:00.000Z',
    require_signed_urls: on,
  });
  const box = screen.getByRole('checkbox', { name: 'Require signed URLs' });
  await user.click(box);
  await waitFor(() => expect((box as HTMLInputElement).checked).toBe(on));
  await screen.findByText(on ? /only signed URLs draw/ : /every URL draws/);
}

/** Clicks Generate (its calls answered) and gives the output named `name`. */
async function generated(user: ReturnType<typeof open>['user'], name = 'Direct link') {
  answer('POST /api/pic-snippet/{id}/cache-id', 200, { success: true, cache_id: 'v4', version: 4 });
  answer('POST /api/pic-snippet/{id}/sign', 200, {
    success: true,
    url: `${BASE}/v4?__sf=names&__sig=${'s'.repeat(43)}`,
    form: 'names',
    expires_at: null,
  });
  await user.click(screen.getByRole('button', { name: 'Generate' }));
  await screen.findByRole('heading', { name: /Ready to paste/ });
  return (screen.getByRole('textbox', { name }) as HTMLTextAreaElement).value;
}

/** An Image that loads whatever it is given (happy-dom loads none): Generate waits for the preview. */
class LoadingImage {
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  set src(_url: string) {
    queueMicrotask(() => this.onload?.());
  }
}

describe('Require signed URLs changed on the screen, for a GIF design', () => {
  beforeEach(() => {
    vi.stubGlobal('Image', LoadingImage);
  });

  it('gives the .gif back to a design loaded signed and switched to unsigned', async () => {
    const { user } = open('klaviyo', { ...gifPhoto, require_signed_urls: true });
    expect(notice()).toBeNull();
    await requireSigned(user, false);
    expect(notice()).not.toBeNull();
    expect((await generated(user)).startsWith(`${BASE}/v4.gif`)).toBe(true);
  });

  it('keeps the still while signed, and gives the .gif back when turned off again', async () => {
    const { user } = open('klaviyo', gifPhoto);
    await requireSigned(user, true);
    expect(notice()).toBeNull();
    expect((await generated(user)).startsWith(`${BASE}/v4?__sf=names&__sig=`)).toBe(true);
    await requireSigned(user, false);
    expect(notice()).not.toBeNull();
    expect((await generated(user)).startsWith(`${BASE}/v4.gif`)).toBe(true);
  });
});

describe('Require signed URLs turned off for a poll design loaded signed', () => {
  beforeEach(() => {
    vi.stubGlobal('Image', LoadingImage);
  });

  it("gives the e-mail HTML the poll's answer buttons", async () => {
    const { user } = open('klaviyo', {
      require_signed_urls: true,
      graphics_data: [
        {
          uuid: 'p1',
          stickerType: 'dynamicSticker',
          dynamicStickerType: 'poll',
          dynamicStickerParamName: 'poll1',
          poll: { options: [{ label: 'Tea' }, { label: 'Coffee' }], bar_fill: '#4f7cff' },
        },
      ],
    });
    await requireSigned(user, false);
    const html = await generated(user, 'HTML');
    expect(html).toContain('Tea');
    expect(html).toContain('Coffee');
    expect(html).toContain('__vote=1');
  });
});
