/**
 * `?fix=true` (docs/editor.md "Architecture"): objects larger than the canvas shrink to fit inside
 * it (5 px margins, docs/editor.md "Editing rules"); everything else is left exactly as it was.
 */
import { describe, expect, it } from 'vitest';
import { produce } from 'immer';
import { DesignDocumentSchema } from '#shared/design.ts';
import { fixOversizedObjects } from '../../web/src/features/editor/document/fix.ts';
import { fixOnOpen } from '../../web/src/features/editor/fixOnOpen.ts';
import { counts, demoDocument, openEditor } from '../support/editor.ts';

/** The demo design (1000 × 750) with a too-wide snippet and two stickers. */
function oversized() {
  const base = demoDocument();
  return DesignDocumentSchema.parse({
    ...base,
    text_snippets: [
      ...base.text_snippets,
      { id: 'wide', text: 'Far too wide', left: 300, top: 100, width: 1600, fontSize: 40 },
    ],
    graphics_data: [
      // 2000 × 1000 drawn: twice the canvas width.
      {
        uuid: 'big',
        url: 'files/s.png',
        left: 100,
        top: 50,
        width: 1000,
        height: 500,
        scaleX: 2,
        scaleY: 2,
      },
      {
        uuid: 'small',
        url: 'files/s.png',
        left: 10,
        top: 10,
        width: 512,
        height: 512,
        scaleX: 0.1,
        scaleY: 0.1,
      },
    ],
  });
}

describe('fixOversizedObjects', () => {
  it('narrows a snippet wider than the canvas to the canvas less its margins, inside it', () => {
    const fixed = produce(oversized(), (d) => void fixOversizedObjects(d));
    const wide = fixed.text_snippets.find((s) => s.id === 'wide')!;
    expect(wide.width).toBe(990);
    expect(wide.left).toBe(5);
    expect(wide.top).toBe(100);
  });

  it('scales an oversized sticker down about its centre, aspect kept, inside the canvas', () => {
    const doc = oversized();
    const fixed = produce(doc, (d) => void fixOversizedObjects(d));
    const big = fixed.graphics_data.find((s) => s.uuid === 'big')!;
    const drawn = { width: big.width * big.scaleX, height: big.height * big.scaleY };
    expect(drawn.width).toBeCloseTo(990, 5);
    expect(drawn.height).toBeCloseTo(495, 5);
    expect(big.scaleX / big.scaleY).toBeCloseTo(1, 10);
    expect(big.left).toBeGreaterThanOrEqual(5);
    expect(big.left + drawn.width).toBeLessThanOrEqual(995.5);
    expect(big.top + drawn.height).toBeLessThanOrEqual(745.5);
  });

  it('leaves objects that fit, and the whole document when nothing is too large', () => {
    const doc = oversized();
    const fixed = produce(doc, (d) => void fixOversizedObjects(d));
    expect(fixed.graphics_data.find((s) => s.uuid === 'small')).toEqual(
      doc.graphics_data.find((s) => s.uuid === 'small'),
    );
    expect(fixed.text_snippets[0]).toEqual(doc.text_snippets[0]);

    const fine = demoDocument();
    let notes: string[] = [];
    const same = produce(fine, (d) => {
      notes = fixOversizedObjects(d);
    });
    expect(notes).toEqual([]);
    expect(same).toBe(fine);
  });

  it('says what it changed', () => {
    const notes = fixOversizedObjects(structuredClone(oversized()));
    expect(notes).toEqual([
      'text snippet "Far too wide" narrowed to 990 px',
      'sticker scaled to 990 × 495 px',
    ]);
  });

  it('places a centre-origin sticker by its centre', () => {
    const doc = DesignDocumentSchema.parse({
      ...demoDocument(),
      graphics_data: [
        {
          uuid: 'c',
          url: 'files/s.png',
          originX: 'center',
          originY: 'center',
          left: 500,
          top: 375,
          width: 3000,
          height: 3000,
          scaleX: 1,
          scaleY: 1,
        },
      ],
    });
    const fixed = produce(doc, (d) => void fixOversizedObjects(d));
    const c = fixed.graphics_data[0]!;
    expect(c.width * c.scaleX).toBeCloseTo(740, 5);
    expect(c.left).toBe(500);
    expect(c.top).toBe(375);
  });
});

describe('?fix=true when the editor opens', () => {
  const history = () => {
    const calls: string[] = [];
    return {
      calls,
      state: { idx: 0 },
      replaceState: (_s: unknown, _t: string, url: string) => void calls.push(url),
    };
  };

  it('repairs as one undo step, saves at once and drops the parameter from the address', () => {
    const { store } = openEditor(oversized());
    let flushed = 0;
    const h = history();
    const changed = fixOnOpen(
      store,
      async () => void flushed++,
      { href: 'https://app.example/pic-snippet/d1/edit?fix=true&x=1#top' },
      h,
    );
    expect(changed).toBe(true);
    expect(flushed).toBe(1);
    expect(h.calls).toEqual(['/pic-snippet/d1/edit?x=1#top']);
    expect(counts(store)).toEqual({ undo: 1, redo: 0 });
    expect(store.getState().design!.text_snippets.find((s) => s.id === 'wide')!.width).toBe(990);
  });

  it('does nothing without the parameter, and saves nothing when all fits', () => {
    const { store } = openEditor(oversized());
    let flushed = 0;
    const h = history();
    expect(
      fixOnOpen(store, async () => void flushed++, { href: 'https://a.example/e?fix=1' }, h),
    ).toBe(false);
    expect(h.calls).toEqual([]);
    const fine = openEditor();
    expect(
      fixOnOpen(
        fine.store,
        async () => void flushed++,
        { href: 'https://a.example/e?fix=true' },
        h,
      ),
    ).toBe(false);
    expect(flushed).toBe(0);
    expect(counts(store)).toEqual({ undo: 0, redo: 0 });
  });
});
