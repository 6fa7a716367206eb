/**
 * Server sync of the open design (docs/editor.md "Server sync"; docs/editor.md "Commands": "each …
 * change is saved to the server", docs/editor.md "Constants" debounce): every document change is
 * saved with `PUT /api/pic-snippet/{id}` (the full document, the title and the `version`) once the
 * user has paused for 1000 ms; a title is saved at once (docs/editor.md "Architecture": "saves on
 * blur"). Saves never overlap: a change made while one is on its way is saved right after it.
 *
 * **A 409** (the design was saved elsewhere, docs/editor.md "Server sync") loads the current
 * version and re-applies this editor's unsaved changes onto it (document/merge.ts: what this editor
 * changed wins, the rest is theirs), saves the result with the new version and says so. Nothing the
 * user typed is dropped. The undo history survives when the merge left the editor's document as it
 * was; otherwise it is cleared, as on a load (its patches describe the old document).
 *
 * **A QR code change** (colour, margin, transparency, value; docs/editor.md "Architecture" QR
 * toolbar) that is the only unsaved change goes through the spec's `PUT
 * /api/pic-snippet/{id}/qrCode` (docs/editor.md "Server sync") instead of the full save: the same
 * queue, the same version, the same 409 path, so the two never race. The QR toolbar has already
 * waited the spec's 300 ms (colour) or 200 ms (margin, transparency; docs/editor.md "Constants"),
 * so such a save starts at once; a typed QR value waits the usual 1000 ms. An undo of a QR change
 * is a QR change too, and is saved the same way (docs/adr/0033-editor-correctness-fixes.md "QR
 * changes").
 *
 * The controller has no React and no fetch of its own: it gets a `DesignServer` (api.ts in the
 * page, a fake in the unit tests).
 */
import type { DesignDocument, Sticker } from '#shared/design.ts';
import { mergeDesigns, sameValue } from './document/merge.ts';
import type { LoadedDesign } from './store/designSlice.ts';
import type { EditorStore } from './store/index.ts';

/** The pause after the last change before it is saved, ms (docs/editor.md "Commands", docs/editor.md "Constants": "server save after 1000 ms"). */
export const SAVE_DEBOUNCE_MS = 1000;

/** 409 rounds in a row before the editor gives up and shows the failure. */
const MAX_CONFLICT_ROUNDS = 3;

/** Shown when a failure carries no message of its own. */
const SAVE_FAILED = 'Your changes could not be saved.';

/** The sticker fields `PUT /api/pic-snippet/{id}/qrCode` saves (functions/designs/handler.ts). */
export const QR_CODE_FIELDS = [
  'dynamicStickerUrl',
  'qrCodeColor',
  'marginSize',
  'isTransparent',
  'newQrDataUrl',
] as const;
type QrCodeField = (typeof QR_CODE_FIELDS)[number];

/** The longest `newQrDataUrl` the QR call takes, characters (its schema's limit). */
export const QR_DATA_URL_LIMIT = 100_000;

/** One QR code's changed fields: all a document change is when it goes through the QR call. */
export interface QrCodeChange {
  stickerId: string;
  fields: Partial<Pick<Sticker, QrCodeField>>;
}

/** What a save sends: the design's version, its title and its whole document. */
export interface SaveRequest {
  version: number;
  title: string;
  document: DesignDocument;
  /**
   * Set when the only change since the server's copy (same title) is this QR code's fields:
   * the server may save it with `PUT /api/pic-snippet/{id}/qrCode` rather than the full save.
   */
  qrCode?: QrCodeChange;
}

/**
 * The QR code change that turns `base` into `next`, when that is all that changed: one QR code
 * sticker (same uuid, same place in the list) differs, and only in the fields of the QR call
 * (`QR_CODE_FIELDS`), with a QR image the call accepts. Immer keeps unchanged parts identical,
 * so this is a few reference checks after an editor change.
 * @returns the sticker's uuid and its new values of the changed fields, or null.
 */
export function qrCodeChange(base: DesignDocument, next: DesignDocument): QrCodeChange | null {
  if (base === next) return null;
  const keys = new Set([...Object.keys(base), ...Object.keys(next)]) as Set<keyof DesignDocument>;
  for (const key of keys) {
    if (key !== 'graphics_data' && !sameValue(base[key], next[key])) return null;
  }
  const before = base.graphics_data;
  const after = next.graphics_data;
  if (before.length !== after.length) return null;
  const changed = after.flatMap((s, i) => (sameValue(before[i], s) ? [] : [i]));
  if (changed.length !== 1) return null;
  const was = before[changed[0]!]!;
  const now = after[changed[0]!]!;
  if (was.uuid !== now.uuid || was.dynamicStickerType !== 'qrCode') return null;
  if (now.dynamicStickerType !== 'qrCode') return null;
  const fields: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(was), ...Object.keys(now)]) as Set<keyof Sticker>) {
    if (sameValue(was[key], now[key])) continue;
    if (!(QR_CODE_FIELDS as readonly string[]).includes(key)) return null;
    fields[key] = now[key];
  }
  if ((now.newQrDataUrl?.length ?? 0) > QR_DATA_URL_LIMIT) return null;
  return { stickerId: now.uuid, fields: fields as QrCodeChange['fields'] };
}

/**
 * How long a change waits before it is saved, ms: none for a QR colour, margin or transparency
 * change (the QR toolbar already waited the spec's 300 or 200 ms, docs/editor.md "Constants"), else
 * `debounceMs`.
 */
function delayOf(qr: QrCodeChange | null, debounceMs: number): number {
  return qr && !('dynamicStickerUrl' in qr.fields) ? 0 : debounceMs;
}

/** The design API as the sync uses it. */
export interface DesignServer {
  /**
   * Saves the design.
   * @returns the design's new version and saved title.
   * @throws an error with `status: 409` when `version` is stale; any other error otherwise.
   */
  save(id: string, request: SaveRequest): Promise<{ version: number; title: string }>;
  /** Loads the design's current version. */
  load(id: string): Promise<LoadedDesign>;
}

export interface SyncController {
  /** Saves now what is not saved yet (the Retry button, leaving the page); resolves when done. */
  flush(): Promise<void>;
  /** Sets the design's title and saves it at once. */
  saveTitle(title: string): Promise<void>;
  /** Stops watching the store (the page closes). */
  stop(): void;
}

const isConflict = (error: unknown) =>
  typeof error === 'object' && error !== null && (error as { status?: unknown }).status === 409;

const messageOf = (error: unknown) =>
  error instanceof Error && error.message.trim() !== '' ? error.message : SAVE_FAILED;

/**
 * What the title field says of a refused save that carried a new title: the server's message
 * and its field errors for the title (`{ message, errors: { title: [...] } }`).
 */
export function titleErrorOf(error: unknown): string {
  const message = messageOf(error);
  const fields = (error as { errors?: Record<string, unknown> } | null)?.errors?.title;
  const details = Array.isArray(fields)
    ? fields.filter((f): f is string => typeof f === 'string' && f !== message)
    : [];
  return [message, ...details].join(' ');
}

/**
 * Starts saving the store's design (it must be loaded). The store's sync slice shows the state:
 * `pending` while the debounce runs, `saving`, `saved`, or `failed` with the reason.
 * @param options.debounceMs the pause before a save, ms (1000 by default, docs/editor.md "Constants").
 */
export function startSync(
  store: EditorStore,
  server: DesignServer,
  options: { debounceMs?: number } = {},
): SyncController {
  const debounceMs = options.debounceMs ?? SAVE_DEBOUNCE_MS;
  const first = store.getState();
  if (!first.design || !first.meta) throw new Error('startSync needs a loaded design');
  /** What the server has from this editor: the base of a 409 merge. */
  let base: DesignDocument = first.design;
  let savedTitle = first.meta.title;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | null = null;
  let again = false;
  let conflictRounds = 0;
  store.getState().markSaved(first.revision);

  const cancelTimer = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  const unsaved = () => {
    const s = store.getState();
    return s.revision !== s.savedRevision || s.meta?.title !== savedTitle;
  };
  /** The unsaved change as a QR code change, when that is all it is (see the module comment). */
  const pendingQrCode = (): QrCodeChange | null => {
    const { design, meta } = store.getState();
    return design && meta && meta.title === savedTitle ? qrCodeChange(base, design) : null;
  };
  const schedule = () => {
    cancelTimer();
    store.getState().setSaveState('pending');
    timer = setTimeout(() => void flush(), delayOf(pendingQrCode(), debounceMs));
  };

  const unsubscribe = store.subscribe((s, prev) => {
    if (s.revision !== prev.revision && unsaved()) schedule();
  });

  async function saveOnce(): Promise<void> {
    const { design, meta, revision, setSaveState } = store.getState();
    if (!design || !meta) return;
    setSaveState('saving');
    const qrCode = pendingQrCode();
    try {
      const result = await server.save(meta.id, {
        version: meta.version,
        title: meta.title,
        document: design,
        ...(qrCode ? { qrCode } : {}),
      });
      base = design;
      savedTitle = meta.title;
      conflictRounds = 0;
      store.getState().setMeta({ version: result.version });
      store.getState().markSaved(revision);
      // Changes made meanwhile wait for their own debounce (the subscription started it).
      if (!unsaved()) store.getState().setSaveState('saved');
      else if (timer === undefined) schedule();
      else store.getState().setSaveState('pending');
    } catch (error) {
      if (isConflict(error) && conflictRounds < MAX_CONFLICT_ROUNDS) {
        conflictRounds++;
        await reapply();
      } else {
        conflictRounds = 0;
        store.getState().setSaveState('failed', messageOf(error));
        // The title field says why too, when the refused save carried a new title.
        if (meta.title !== savedTitle) store.getState().setTitleError(titleErrorOf(error));
      }
    }
  }

  /** The 409 path (see the module comment). */
  async function reapply(): Promise<void> {
    let fresh: LoadedDesign;
    try {
      fresh = await server.load(first.meta!.id);
    } catch (error) {
      store.getState().setSaveState('failed', messageOf(error));
      return;
    }
    const s = store.getState();
    if (!s.design || !s.meta) return;
    const mineTitle = s.meta.title !== savedTitle ? s.meta.title : fresh.meta.title;
    const { document, changedUnderneath } = mergeDesigns(base, s.design, fresh.document);
    base = fresh.document;
    savedTitle = fresh.meta.title;
    s.replaceDocument(document, fresh.meta.version, !changedUnderneath);
    s.setMeta({ title: mineTitle });
    const nothingOfMine = sameValue(document, fresh.document) && mineTitle === fresh.meta.title;
    const text = nothingOfMine
      ? 'This design was changed elsewhere; the editor now shows the newest version.'
      : `This design was changed elsewhere. Your changes were re-applied onto the newest version${
          changedUnderneath ? ' (the undo history starts again from here)' : ''
        }.`;
    s.showNotice({ tone: 'info', text });
    if (nothingOfMine) {
      store.getState().markSaved(store.getState().revision);
      cancelTimer();
      store.getState().setSaveState('saved');
    } else again = true;
  }

  async function flush(): Promise<void> {
    cancelTimer();
    if (running) {
      again = true;
      return running;
    }
    if (!unsaved()) {
      store.getState().setSaveState('saved');
      return;
    }
    running = (async () => {
      do {
        again = false;
        cancelTimer();
        await saveOnce();
      } while (again && store.getState().saveStatus !== 'failed');
    })().finally(() => {
      running = null;
    });
    return running;
  }

  return {
    flush,
    saveTitle: (title) => {
      store.getState().setMeta({ title });
      return flush();
    },
    stop: () => {
      unsubscribe();
      cancelTimer();
    },
  };
}
