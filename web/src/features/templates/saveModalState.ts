/**
 * The Save as template modal's state (docs/templates.md "Model": "Template status in the save
 * modal"; docs/editor.md "Messages" "Template save"), as a pure reducer so the rules are testable
 * without a browser:
 * - status `save` when the design has no stored tags, `update` when it has; a successful save
 *   makes it `update`;
 * - the title reads "Create a template" (save) or "Update tags" (update); the button Continue
 *   (save) or Update (update);
 * - a success shows a `success` message and the modal closes after 3 s; a failure shows a
 *   `danger` message with the server's message, cleared after 3 s;
 * - when the current design is removed from a bundle, the server empties its tags and the
 *   modal re-reads them on open (an `open` with no stored tags), so the status is `save`;
 * - the tag editor's rules come from shared/template-tags.ts (duplicates refused with 'Current
 *   tag is already added.' for 3 s).
 */
import { addTag, TAG_ERROR_MS } from '#shared/template-tags.ts';
import type { BundleChoice, BundleOption } from '../../api/templates.ts';

/** docs/editor.md "Messages": the modal closes 3 s after a success; alerts clear after 3 s. */
export const CLOSE_AFTER_MS = 3000;
export const ALERT_MS = 3000;
export { TAG_ERROR_MS };

export type SaveStatus = 'save' | 'update';

export interface SaveModalState {
  status: SaveStatus;
  tags: string[];
  /** The tag editor's refusal, shown for {@link TAG_ERROR_MS}. */
  tagError: string | null;
  /** Existing bundles, `selected` when the template is (to be) in them. */
  bundles: BundleOption[];
  /** Names of bundles to create with this save. */
  newBundles: string[];
  phase: 'editing' | 'saving' | 'saved';
  message: { tone: 'success' | 'danger'; text: string } | null;
}

export type SaveModalEvent =
  | { type: 'open'; storedTags: readonly string[]; bundles: readonly BundleOption[] }
  | { type: 'addTag'; raw: string }
  | { type: 'removeTag'; tag: string }
  | { type: 'clearTagError' }
  | { type: 'toggleBundle'; id: string }
  | { type: 'addBundleName'; name: string }
  | { type: 'removeBundleName'; name: string }
  | { type: 'submit' }
  | { type: 'saved'; message: string; tags: readonly string[]; bundles: readonly BundleOption[] }
  | { type: 'failed'; message: string }
  | { type: 'clearMessage' };

/** The state of a closed modal for a design with `storedTags`. */
export function initialSaveModalState(storedTags: readonly string[] = []): SaveModalState {
  return {
    status: storedTags.length > 0 ? 'update' : 'save',
    tags: [...storedTags],
    tagError: null,
    bundles: [],
    newBundles: [],
    phase: 'editing',
    message: null,
  };
}

/** docs/templates.md "Model": "Create a template" when new, "Update tags" when already a template. */
export const modalTitle = (s: SaveModalState) =>
  s.status === 'save' ? 'Create a template' : 'Update tags';

/** docs/templates.md "Model": "Continue on first save and Update afterwards". */
export const submitLabel = (s: SaveModalState) => (s.status === 'save' ? 'Continue' : 'Update');

/** Whether the form may be sent: at least one tag, nothing under way. */
export const canSubmit = (s: SaveModalState) => s.tags.length > 0 && s.phase === 'editing';

/** The bundle choices sent with a save: the selected bundles, then the new names. */
export const bundleChoices = (s: SaveModalState): BundleChoice[] => [
  ...s.bundles.filter((b) => b.selected).map((b) => ({ id: b.id })),
  ...s.newBundles.map((name) => ({ name })),
];

/** Applies one event. Events that do not apply in the current phase change nothing. */
export function saveModalReducer(s: SaveModalState, event: SaveModalEvent): SaveModalState {
  switch (event.type) {
    case 'open':
      return { ...initialSaveModalState(event.storedTags), bundles: [...event.bundles] };
    case 'addTag': {
      if (s.phase !== 'editing') return s;
      const next = addTag(s.tags, event.raw);
      return { ...s, tags: next.tags, tagError: next.error ?? null };
    }
    case 'removeTag':
      return s.phase === 'editing' ? { ...s, tags: s.tags.filter((t) => t !== event.tag) } : s;
    case 'clearTagError':
      return { ...s, tagError: null };
    case 'toggleBundle':
      return s.phase === 'editing'
        ? {
            ...s,
            bundles: s.bundles.map((b) =>
              b.id === event.id ? { ...b, selected: !b.selected } : b,
            ),
          }
        : s;
    case 'addBundleName': {
      const name = event.name.replace(/\s+/gu, ' ').trim();
      if (s.phase !== 'editing' || name === '') return s;
      const same = (n: string) => n.toLowerCase() === name.toLowerCase();
      // An existing bundle's name picks that bundle rather than making a second one.
      const existing = s.bundles.find((b) => same(b.name));
      if (existing) {
        return {
          ...s,
          bundles: s.bundles.map((b) => (b === existing ? { ...b, selected: true } : b)),
        };
      }
      return s.newBundles.some(same) ? s : { ...s, newBundles: [...s.newBundles, name] };
    }
    case 'removeBundleName':
      return { ...s, newBundles: s.newBundles.filter((n) => n !== event.name) };
    case 'submit':
      return canSubmit(s) ? { ...s, phase: 'saving', message: null } : s;
    case 'saved':
      return s.phase !== 'saving'
        ? s
        : {
            ...s,
            status: 'update',
            phase: 'saved',
            tags: [...event.tags],
            bundles: [...event.bundles],
            newBundles: [],
            message: { tone: 'success', text: event.message },
          };
    case 'failed':
      return s.phase !== 'saving'
        ? s
        : { ...s, phase: 'editing', message: { tone: 'danger', text: event.message } };
    case 'clearMessage':
      return { ...s, message: null };
  }
}
