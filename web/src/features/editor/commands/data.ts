/**
 * The data panel's command (docs/data-sources.md "Binding a design"; docs/editor.md "Data
 * sources"): the design's whole binding list is replaced by the panel's edited copy, one undo
 * step per change, after the shared schema has checked it, so the editor never saves bindings
 * the server would refuse.
 */
import { castDraft } from 'immer';
import { DataBindingsSchema } from '#shared/data-bindings.ts';
import type { EditorCommand } from '../commands.ts';
import type { EditorState } from '../store/index.ts';
import { changeIntent } from './intent.ts';

/** The arguments of the data commands. */
export interface DataCommandArgs {
  setDataBindings: { bindings: unknown[] };
}

/** Thrown when the edited bindings break the shared schema; `message` is the first problem. */
export class DataBindingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataBindingsError';
  }
}

const hasDesign = (s: EditorState) => s.design !== null;

export const DATA_COMMANDS: {
  [K in keyof DataCommandArgs]: EditorCommand<DataCommandArgs[K]>;
} = {
  setDataBindings: {
    name: 'setDataBindings',
    label: 'Data sources',
    shortcuts: [],
    history: { kind: 'step', eventType: 'data.event' },
    enabled: hasDesign,
    /**
     * Replaces the design's bindings (at most 5, 20 fields each: shared/data-bindings.ts).
     * @throws DataBindingsError with the schema's message; nothing changes then.
     */
    perform(store, { bindings }) {
      const parsed = DataBindingsSchema.safeParse(bindings);
      if (!parsed.success) throw new DataBindingsError(parsed.error.issues[0]!.message);
      const next = parsed.data;
      store.getState().applyChange(changeIntent(this), (draft) => {
        draft.data_bindings = castDraft(next);
      });
    },
  },
};
