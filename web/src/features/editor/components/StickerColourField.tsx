/**
 * A regular sticker's colour (docs/editor.md "Sticker colour"): the shared colour picker
 * (ColorField.tsx) sets the colour blended onto the sticker in mode screen, **No colour** clears
 * it; each change is one undo step. Self-contained: it reads and changes the sticker by its id.
 */
import { stickerColour } from '#shared/scene/sticker-filters.ts';
import type { Sticker } from '#shared/design.ts';
import { runCommand } from '../commands.ts';
import { useEditorContext } from '../EditorContext.tsx';
import { ColorField } from './ColorField.tsx';

/** The colour control of `sticker`: the picker, and No colour while it has one. */
export function StickerColourField({ sticker }: { sticker: Sticker }) {
  const { store } = useEditorContext();
  const colour = stickerColour(sticker.filters);
  return (
    <div className="panel-colour">
      <ColorField
        label="Sticker colour"
        kind="color"
        value={colour}
        onValue={(hex) => runCommand(store, 'setStickerColour', { id: sticker.uuid, colour: hex })}
      />
      {colour !== null && (
        <button
          type="button"
          className="button button--small button--secondary"
          onClick={() => runCommand(store, 'clearStickerColour', { id: sticker.uuid })}
        >
          No colour
        </button>
      )}
    </div>
  );
}
