/**
 * The export screen says when a design goes out as an animated GIF (docs/export.md "Animated
 * designs"): for an e-mail platform, a design drawing a GIF file is told it plays as a GIF and
 * that Outlook desktop shows its first frame; a web page (which keeps the still), a design
 * without a GIF file and a design that requires signed URLs are told nothing. "Require signed
 * URLs" changed on the screen changes both the notice and Generate's link: on, the still (`.jpg`
 * path); off again, or off for a design loaded signed, the `.gif`.
 */
import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/TestProviders.tsx';
import { answer } from '../../test/api.ts';
import { aMergeTagList, aUser } from '../../test/fixtures.ts';
import { toExportDesign } from './api.ts';
import { ExportScreen } from './ExportScreen.tsx';
import { CUSTOM_DATA_MODAL_KEY } from './model.ts';

function open(provider: string, fields: Record<string, unknown>) {
  window.localStorage.setItem(CUSTOM_DATA_MODAL_KEY, '0');
  const design = toExportDesign({
    id: 'd1',
    title: 'Dance',
    version: 3,
    base_url: 'https://cdn.example.com/r/abc',
    canvas_width: 600,
    canvas_height: 400,
    merge_tag_provider: provider,
    merge_tag_choices: [],
    text_snippets: [],
    graphics_data: [],
    ...fields,
  });
  answer('POST /api/merge-tag', 200, aMergeTagList(provider));
  return renderWithProviders(<ExportScreen design={design} team={null} storeFronts={[]} />, {
    signedInAs: aUser(),
  });
}

const notice = () => screen.queryByText('An animated GIF in e-mail');
const gifPhoto = { base_image_key: 'uploads/u1/dance.gif' };

describe('the animated GIF notice on the export screen', () => {
  it('tells an e-mail export that the design plays as a GIF, Outlook desktop its first frame', () => {
    open('klaviyo', gifPhoto);
    expect(notice()).not.toBeNull();
    expect(notice()!.parentElement!.textContent).toContain(
      'This design plays as an animated GIF in e-mail: its URL ends in .gif. Outlook desktop shows its first frame, the design as you saved it.',
    );
  });

  it('says so for a GIF sticker too', () => {
    open('infusionsoft', {
      graphics_data: [{ uuid: 's1', stickerType: 'upload', url: 'https://cdn.example/u/a.gif' }],
    });
    expect(notice()).not.toBeNull();
  });

  it('says nothing for a web page, which keeps the still', () => {
    open('mywebsite', gifPhoto);
    expect(notice()).toBeNull();
  });

  it('says nothing for a design without a GIF file, or one that requires signed URLs', () => {
    const still = open('klaviyo', { base_image_key: 'uploads/u1/photo.jpg' });
    expect(notice()).toBeNull();
    still.unmount();
    open('klaviyo', { ...gifPhoto, require_signed_urls: true });
    expect(notice()).toBeNull();
  });
});

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

/** Clicks Generate and answers the direct link it writes. */
async function generatedLink(user: ReturnType<typeof open>['user']): Promise<string> {
  answer('POST /api/pic-snippet/{id}/cache-id', 200, { success: true, cache_id: 'v4', version: 4 });
  answer('POST /api/pic-snippet/{id}/sign', 200, {
    success: true,
    url: `${BASE}/v4?__sf=names&__sig=${'s'.repeat(43)}`,
    form: 'names',
    expires_at: null,
  });
  await user.click(screen.getByRole('button', { name: 'Generate' }));
  await screen.findByRole('heading', { name: /Ready to paste/ });
  return (screen.getByRole('textbox', { name: 'Direct link' }) as HTMLTextAreaElement).value;
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
    expect((await generatedLink(user)).startsWith(`${BASE}/v4.gif`)).toBe(true);
  });

  it('keeps the still while signed, and gives the .gif back when turned off again', async () => {
    const { user } = open('klaviyo', gifPhoto);
    await requireSigned(user, true);
    expect(notice()).toBeNull();
    expect((await generatedLink(user)).startsWith(`${BASE}/v4?__sf=names&__sig=`)).toBe(true);
    await requireSigned(user, false);
    expect(notice()).not.toBeNull();
    expect((await generatedLink(user)).startsWith(`${BASE}/v4.gif`)).toBe(true);
  });
});
