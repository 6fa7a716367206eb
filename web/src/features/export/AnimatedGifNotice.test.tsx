/**
 * The export screen says when a design goes out as an animated GIF (docs/export.md "Animated
 * designs"): for an e-mail platform, a design drawing a GIF file is told it plays as a GIF and
 * that Outlook desktop shows its first frame; a web page (which keeps the still), a design
 * without a GIF file and a design that requires signed URLs are told nothing (signing changed on
 * the screen: SignedUrlsChanged.test.tsx).
 */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { openExportScreen } from '../../test/exportScreen.ts';

const open = openExportScreen;

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
