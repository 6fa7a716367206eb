/**
 * The countdown timer's GIF frames (./CountdownPanel.tsx; docs/adr/0058-countdown-timers.md
 * "Countdown timers"): when the canvas is too large for the frames asked, the field says how many
 * the render draws (shared/scene/countdown.ts `framesThatFit`), instead of drawing fewer without a
 * word.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { framesThatFit } from '#shared/scene/countdown.ts';
import { descriptionOf } from '../../../test/expectations.ts';
import { openEditor, renderInEditor } from '../../../test/EditorTestProviders.tsx';
import { runCommand } from '../commands.ts';
import { StickerToolbar } from './StickerTools.tsx';

function withTimer(canvas: { width: number; height: number }) {
  const store = openEditor();
  store.setState((s) => ({
    design: { ...s.design!, canvas_width: canvas.width, canvas_height: canvas.height },
  }));
  runCommand(store, 'addSticker', { source: { kind: 'dynamic', dynamicType: 'countdown' } });
  return store;
}

const framesField = () => screen.getByRole('spinbutton', { name: 'GIF frames (one a second)' });

describe('the countdown panel', () => {
  it('says nothing more while the frames fit the canvas', () => {
    renderInEditor(<StickerToolbar />, { store: withTimer({ width: 900, height: 600 }) });
    expect((framesField() as HTMLInputElement).value).toBe('30');
    expect(descriptionOf(framesField())).toBe('');
  });

  it('says how many frames a large canvas draws when more are asked', async () => {
    const store = withTimer({ width: 1056, height: 1056 });
    const { user } = renderInEditor(<StickerToolbar />, { store });
    const fit = framesThatFit(1056, 1056);
    expect(fit).toBe(15);
    expect(descriptionOf(framesField())).toBe(
      'This 1056 × 1056 px canvas draws 15 frames: a GIF holds at most 17 million pixels, so e-mail clients load it quickly.',
    );
    // Fewer frames asked: nothing more to say.
    await user.clear(framesField());
    await user.type(framesField(), '10');
    await user.tab();
    expect(descriptionOf(framesField())).toBe('');
  });
});
