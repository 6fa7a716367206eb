/**
 * The alt-text command (docs/export.md "Alt text"): the design's alt-text template replaced, one
 * undo step per change, after the shared schema has checked it; blank text goes back to the
 * default (the texts joined: shared/alt-text.ts `altTemplate`).
 */
import { DesignDocumentFieldsSchema } from '#shared/design.ts';
import type { EditorCommand } from '../commands.ts';
import type { EditorState } from '../store/index.ts';
import { changeIntent } from './intent.ts';

/** The arguments of the alt-text command. */
export interface AltTextCommandArgs {
  setAltText: { text: string };
}

/** Thrown when the alt text breaks the shared schema; `message` is the schema's. */
export class AltTextError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AltTextError';
  }
}

const hasDesign = (s: EditorState) => s.design !== null;

export const ALT_TEXT_COMMANDS: {
  [K in keyof AltTextCommandArgs]: EditorCommand<AltTextCommandArgs[K]>;
} = {
  setAltText: {
    name: 'setAltText',
    label: 'Alt text',
    shortcuts: [],
    history: { kind: 'step', eventType: 'snippets.event' },
    enabled: hasDesign,
    /**
     * Sets the alt-text template; blank: null (the default).
     * @throws AltTextError with the schema's message (too long); nothing changes then.
     */
    perform(store, { text }) {
      const next = text.trim() === '' ? null : text.trim();
      const parsed = DesignDocumentFieldsSchema.shape.alt_text.safeParse(next);
      if (!parsed.success) throw new AltTextError(parsed.error.issues[0]!.message);
      if ((store.getState().design?.alt_text ?? null) === parsed.data) return;
      store.getState().applyChange(changeIntent(this), (draft) => {
        draft.alt_text = parsed.data;
      });
    },
  },
};
