/**
 * Three-way merge of design documents, for a save answered 409 (docs/editor.md "Server sync": "a
 * stale write gets a clear 409, never a silent lost update"; docs/editor.md "Nothing the user typed
 * is dropped"). The editor re-applies its unsaved changes onto the version saved elsewhere:
 *
 * - `base` is the document the server last acknowledged from this editor (or loaded);
 * - `mine` is the editor's document now;
 * - `theirs` is the current version on the server.
 *
 * What this editor changed since `base` wins; everything else comes from `theirs`. Text
 * snippets (by `id`) and stickers (by `uuid`) merge one by one, so a snippet added elsewhere
 * stays beside the one added here; the other fields merge field by field. The result goes
 * through the one restore path (`restoreDesign`), so it is a valid document.
 */
import { restoreDesign, type DesignDocument } from '#shared/design.ts';

/** Structural equality of JSON-like values (key order does not matter). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const list = b as unknown[];
    return a.length === list.length && a.every((item, i) => sameValue(item, list[i]));
  }
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  return (
    ka.length === kb.length &&
    ka.every((k) => sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

/**
 * Merges two lists of objects keyed by `key` against their common base (see the module
 * comment): theirs' order, then the items only this editor has, in its order.
 */
function mergeList<T>(
  base: readonly T[],
  mine: readonly T[],
  theirs: readonly T[],
  key: (item: T) => string,
): T[] {
  const inBase = new Map(base.map((item) => [key(item), item]));
  const inMine = new Map(mine.map((item) => [key(item), item]));
  const inTheirs = new Set(theirs.map(key));
  const out: T[] = [];
  for (const item of theirs) {
    const id = key(item);
    const before = inBase.get(id);
    const now = inMine.get(id);
    if (before === undefined)
      out.push(now ?? item); // added there (or, by chance, here too)
    else if (now === undefined)
      continue; // deleted here: a change of mine
    else out.push(sameValue(now, before) ? item : now);
  }
  for (const item of mine) {
    const id = key(item);
    if (inTheirs.has(id)) continue;
    const before = inBase.get(id);
    // Added here; or deleted there while changed here (kept: it is what the user worked on).
    if (before === undefined || !sameValue(item, before)) out.push(item);
  }
  return out;
}

/**
 * Re-applies this editor's changes (`base` → `mine`) onto `theirs`.
 * @returns the merged, restored document, and whether it differs from `mine` (then the
 *   editor's undo history, which is written against `mine`, no longer applies).
 * @throws DesignRestoreError only if `theirs` itself has no base image (it cannot happen for a
 *   document the server answered).
 */
export function mergeDesigns(
  base: DesignDocument,
  mine: DesignDocument,
  theirs: DesignDocument,
): { document: DesignDocument; changedUnderneath: boolean } {
  const merged: Record<string, unknown> = { ...theirs };
  for (const key of Object.keys(mine) as (keyof DesignDocument)[]) {
    if (key === 'text_snippets' || key === 'graphics_data') continue;
    if (!sameValue(mine[key], base[key])) merged[key] = mine[key];
  }
  merged.text_snippets = mergeList(
    base.text_snippets,
    mine.text_snippets,
    theirs.text_snippets,
    (s) => s.id,
  );
  merged.graphics_data = mergeList(
    base.graphics_data,
    mine.graphics_data,
    theirs.graphics_data,
    (s) => s.uuid,
  );
  const { document } = restoreDesign(merged);
  return { document, changedUnderneath: !sameValue(document, mine) };
}
