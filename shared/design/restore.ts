/**
 * The one restore path (docs/adr/0014-the-design-document-versions-and-restore.md "The design
 * document: versions and restore", "One restore path for untrusted data"): migrates, validates and
 * repairs a stored or submitted document; the repairs' helpers.
 */
import type { z } from 'zod';
import {
  CURRENT_SCHEMA_VERSION,
  isRecord,
  migrateDesignDocument,
  storedSchemaVersion,
  type RawDocument,
} from '../design-migrations.ts';
import {
  baseImageScalingWidth,
  LEGACY_BASE_IMAGE_WIDTH,
  LEGACY_SCALING_BEFORE,
  MERGE_FIELD,
} from '../scene/resolve.ts';
import { DESIGN_BOUNDS } from './bounds.ts';
import { ParameterFieldsSchema, TextSnippetFieldsSchema } from './text-snippet.ts';
import { type Sticker, StickerSchema } from './sticker.ts';
import { type DesignDocument, DesignDocumentFieldsSchema } from './document.ts';

/**
 * Thrown by `restoreDesign` when a document cannot be made usable (not an object, written by a
 * newer version, no base image); `issues` are zod's (or zod-shaped) and say where.
 */
export class DesignRestoreError extends Error {
  constructor(
    message: string,
    readonly issues: z.core.$ZodIssue[],
  ) {
    super(message);
    this.name = 'DesignRestoreError';
  }
}

/**
 * The one restore path (docs/adr/0014-the-design-document-versions-and-restore.md "The design
 * document: versions and restore"): validates, migrates and repairs a stored or submitted design
 * document so that it can be drawn and edited. Pure; never mutates `raw`.
 *
 * Repairs, each reported as one human-readable line in `repaired`:
 * - numbers out of range are clamped (font size ≤ 80, stroke width 0–5, QR margin 0–20, canvas
 *   width ≤ 1056, docs/editor.md "Editing rules"; canvas height, sizes and scales to the design
 *   bounds) and angles are brought into 0–360; whole-px fields are rounded;
 * - over-long fallbacks are cut at 255 characters, over-long texts at 1000, and lists past
 *   the design bounds (`DESIGN_BOUNDS`) keep their first items (dynamic stickers past 10 are
 *   dropped); a sticker drawn larger than 4096 px gets the largest scale that fits;
 * - an invalid field that has a default gets the default;
 * - text snippets and stickers that cannot be drawn (missing geometry, no image, no dynamic
 *   type) are dropped rather than failing the whole design; so are unusable parameters;
 * - duplicate snippet ids, sticker uuids and parameter ids are renamed `…-2`, `…-3`;
 * - a minimum font size above the font size is lowered to it (docs/editor.md "Editing rules");
 * - parameters are re-linked to their snippet (`text_snippet_id`) and to their placeholder
 *   (a `{{original_param_name}}` left in the text after a rename is renamed too); a second
 *   parameter of the same name in a snippet and a parameter with no placeholder are removed;
 * - stickers saved with a centre or right/bottom origin get the equivalent top-left position.
 *
 * Restoring a restored document changes nothing and reports nothing.
 * @throws DesignRestoreError when the document cannot be made usable.
 */
export function restoreDesign(raw: unknown): { document: DesignDocument; repaired: string[] } {
  if (!isRecord(raw)) throw unusable('The design document is not an object.', []);
  const repaired: string[] = [];
  let doc: RawDocument = structuredClone(raw);
  let from = storedSchemaVersion(doc);
  if (from === undefined) {
    repaired.push(`schemaVersion ${show(doc.schemaVersion)} is not a version; read as version 1`);
    from = 1;
  }
  if (from > CURRENT_SCHEMA_VERSION)
    throw unusable(
      `The design document has schema version ${from}; this code reads up to ${CURRENT_SCHEMA_VERSION}.`,
      [{ code: 'custom', path: ['schemaVersion'], message: 'newer than this code', input: from }],
    );
  doc = migrateDesignDocument(doc, from).doc;
  if (doc.legacy_base_image_width === undefined) {
    const dated = legacyDate(doc);
    if (dated && baseImageScalingWidth(dated) === LEGACY_BASE_IMAGE_WIDTH) {
      doc.legacy_base_image_width = LEGACY_BASE_IMAGE_WIDTH;
      repaired.push(
        `base photo drawn ${LEGACY_BASE_IMAGE_WIDTH} px wide: last saved ${dated}, before ${LEGACY_SCALING_BEFORE} (spec 000 §9)`,
      );
    }
  }

  const base = DesignDocumentFieldsSchema.pick({ image_id: true, base_image_key: true });
  const baseCheck = base.safeParse(doc);
  if (!baseCheck.success) throw unusable('The design has no base image.', baseCheck.error.issues);

  doc.text_snippets = repairList(doc, 'text_snippets', 'text snippet', repaired, repairSnippet);
  const stickers = repairList(doc, 'graphics_data', 'sticker', repaired, repairSticker);
  doc.graphics_data = stickers && capDynamicStickers(stickers, repaired);
  const top = repairFields(doc, DesignDocumentFieldsSchema, 'design', repaired);
  if (typeof top === 'string') throw unusable(`The design document is unusable: ${top}.`, []);
  const parsed = DesignDocumentFieldsSchema.safeParse(top);
  if (!parsed.success) throw unusable('The design document is unusable.', parsed.error.issues);
  const document = parsed.data;
  repairLinks(document, repaired);
  return { document, repaired };
}

const parsedDocuments = new WeakMap<object, DesignDocument>();

/**
 * `restoreDesign(raw).document`, once per document object: the render service's design cache
 * hands the same object to every request for a second, so cache hits and the draw that follows
 * do not re-run zod on the hot path, and the renderer draws the repaired design.
 * @throws DesignRestoreError when the document cannot be made usable.
 */
export function parseDesignDocument(raw: unknown): DesignDocument {
  if (typeof raw !== 'object' || raw === null) return restoreDesign(raw).document;
  let doc = parsedDocuments.get(raw);
  if (!doc) {
    doc = restoreDesign(raw).document;
    parsedDocuments.set(raw, doc);
  }
  return doc;
}

// ---------------------------------------------------------------------------------------------
// Repairs (restoreDesign's helpers)

/**
 * The old system's date of a document being imported
 * (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and
 * restore" `updated_at`, else `created_at`; docs/editor.md "Constants" dates the scaling by the
 * update), as stored; undefined without one.
 */
function legacyDate(doc: RawDocument): string | undefined {
  for (const key of ['updated_at', 'created_at'] as const) {
    const value = doc[key];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
  }
  return undefined;
}

function unusable(message: string, issues: z.core.$ZodIssue[]): DesignRestoreError {
  return new DesignRestoreError(message, issues);
}

/** A value shortened for a note. */
function show(value: unknown): string {
  const text = value === undefined ? 'undefined' : JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
}

/** Fields holding an angle in degrees: brought into 0–360 rather than clamped. */
const ANGLE_FIELDS = new Set(['angle', 'image_angle']);

/** `value` modulo 360, in [0, 360). */
const normaliseAngle = (value: number) => ((value % 360) + 360) % 360;

/**
 * Repairs one field named by a zod issue, in place.
 * @returns a note when it repaired, `undefined` when the field cannot be repaired.
 */
function repairField(
  value: RawDocument,
  issue: z.core.$ZodIssue,
  schema: z.ZodObject,
): string | undefined {
  const key = issue.path[0];
  if (typeof key !== 'string') return undefined;
  const current = value[key];
  if (issue.path.length > 1) {
    // Inside a list, a map or an object: drop the bad entry (an object's field then takes its
    // default); a missing required entry resets the whole field below.
    const entry = issue.path[1];
    if (Array.isArray(current) && typeof entry === 'number') {
      current.splice(entry, 1);
      return `${key}: entry ${entry} was invalid (${issue.message}); removed`;
    }
    if (isRecord(current) && typeof entry === 'string' && entry in current) {
      const bad = current[entry];
      delete current[entry];
      return `${key}: entry ${entry} ${show(bad)} was invalid; removed`;
    }
  } else if (typeof current === 'number' && Number.isFinite(current)) {
    if ((issue.code === 'too_big' || issue.code === 'too_small') && ANGLE_FIELDS.has(key)) {
      value[key] = normaliseAngle(current);
      return `${key} ${current} brought into 0–360 as ${String(value[key])}`;
    }
    if (issue.code === 'too_big' && issue.inclusive) {
      value[key] = Number(issue.maximum);
      return `${key} ${current} clamped to ${String(value[key])}`;
    }
    if (issue.code === 'too_small' && issue.inclusive) {
      value[key] = Number(issue.minimum);
      return `${key} ${current} clamped to ${String(value[key])}`;
    }
    if (issue.code === 'invalid_type' && issue.expected === 'int') {
      value[key] = Math.round(current);
      return `${key} ${current} rounded to ${String(value[key])}`;
    }
  } else if (typeof current === 'string' && issue.code === 'too_big') {
    value[key] = Array.from(current).slice(0, Number(issue.maximum)).join('');
    return `${key} cut to ${String(issue.maximum)} characters`;
  } else if (Array.isArray(current) && issue.code === 'too_big') {
    value[key] = current.slice(0, Number(issue.maximum));
    return `${key}: ${current.length} items cut to the first ${String(issue.maximum)}`;
  }
  if (current !== undefined && schema.shape[key]?.safeParse(undefined).success) {
    delete value[key];
    return `${key} ${show(current)} was invalid; reset to its default`;
  }
  return undefined;
}

/**
 * Repairs `value`'s fields in place until `schema` accepts it (one fix per pass, so list
 * indices in later issues stay right), noting each fix as `${what}: …`.
 * @returns the repaired value, or the reason it cannot be repaired.
 */
function repairFields(
  value: RawDocument,
  schema: z.ZodObject,
  what: string,
  repaired: string[],
): RawDocument | string {
  for (let pass = 0; pass < 100; pass++) {
    const result = schema.safeParse(value);
    if (result.success) return value;
    const issue = result.error.issues[0]!;
    const note = repairField(value, issue, schema);
    if (note === undefined) {
      const field = issue.path.join('.');
      return value[String(issue.path[0])] === undefined
        ? `no ${field}`
        : `${field} is invalid (${issue.message})`;
    }
    repaired.push(`${what}: ${note}`);
  }
  return 'too many invalid fields';
}

/** Repairs each item of the list `doc[key]`, dropping the items that cannot be repaired. */
function repairList(
  doc: RawDocument,
  key: string,
  what: string,
  repaired: string[],
  repairItem: (item: RawDocument, label: string, repaired: string[]) => RawDocument | string,
): unknown[] | undefined {
  const list = doc[key];
  if (list === undefined) return undefined;
  if (!Array.isArray(list)) {
    repaired.push(`design: ${key} ${show(list)} was not a list; emptied`);
    return [];
  }
  const kept: unknown[] = [];
  list.forEach((item: unknown, index) => {
    const label = `${what} ${isRecord(item) ? show(item.id ?? item.uuid ?? index) : index}`;
    const result = isRecord(item) ? repairItem(item, label, repaired) : 'not an object';
    if (typeof result === 'string') repaired.push(`${label} dropped: ${result}`);
    else kept.push(result);
  });
  return kept;
}

/** Repairs a text snippet and its parameters; the reason when it cannot be drawn. */
function repairSnippet(item: RawDocument, label: string, repaired: string[]): RawDocument | string {
  if (item.id === undefined && typeof item.uuid === 'string') {
    item.id = item.uuid;
    repaired.push(`${label}: id taken from uuid`);
  }
  if (typeof item.fontWeight === 'number' || /^\d+$/.test(String(item.fontWeight))) {
    const weight = Number(item.fontWeight);
    item.fontWeight = weight >= 600 ? 'bold' : 'normal';
    repaired.push(`${label}: fontWeight ${weight} read as ${item.fontWeight}`);
  }
  const parameters = repairList(item, 'parameters', `${label} parameter`, repaired, (p, l, r) =>
    repairFields(p, ParameterFieldsSchema, l, r),
  );
  if (parameters !== undefined) item.parameters = parameters;
  return repairFields(item, TextSnippetFieldsSchema, label, repaired);
}

/** Repairs a sticker; the reason when it cannot be drawn. */
function repairSticker(item: RawDocument, label: string, repaired: string[]): RawDocument | string {
  const fixed = repairFields(item, StickerSchema, label, repaired);
  if (typeof fixed === 'string') return fixed;
  const sticker = StickerSchema.parse(fixed);
  if (sticker.stickerType === 'dynamicSticker' && sticker.dynamicStickerType === null)
    return 'a dynamic sticker without a dynamicStickerType';
  if (sticker.dynamicStickerType === 'countdown' && sticker.countdown === null)
    return 'a countdown sticker without its settings';
  if (sticker.dynamicStickerType === 'poll' && sticker.poll === null)
    return 'a poll sticker without its settings';
  if (sticker.dynamicStickerType === 'weather' && sticker.weather === null)
    return 'a weather sticker without its settings';
  if (sticker.stickerType !== 'dynamicSticker' && sticker.url.trim() === '') return 'no image url';
  if (sticker.originX !== 'left' || sticker.originY !== 'top') {
    const { left, top } = topLeftOf(sticker);
    repaired.push(
      `${label}: origin ${sticker.originX}/${sticker.originY} converted to left/top (${round2(left)}, ${round2(top)})`,
    );
    return { ...fixed, left, top, originX: 'left', originY: 'top' };
  }
  return fixed;
}

/**
 * The stickers with the dynamic ones past the design bound (10, `DESIGN_BOUNDS`) dropped, in
 * order, each noted.
 */
function capDynamicStickers(stickers: unknown[], repaired: string[]): unknown[] {
  let dynamic = 0;
  return stickers.filter((sticker) => {
    if (!isRecord(sticker) || sticker.stickerType !== 'dynamicSticker') return true;
    dynamic += 1;
    if (dynamic <= DESIGN_BOUNDS.dynamicStickers) return true;
    repaired.push(
      `sticker ${show(sticker.uuid)} dropped: over ${DESIGN_BOUNDS.dynamicStickers} dynamic stickers`,
    );
    return false;
  });
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * The top-left corner of a sticker placed by another origin: fabric puts the origin point at
 * (left, top) and rotates the box around it, so the corner is that point minus the rotated
 * offset from the corner to the origin.
 */
function topLeftOf(sticker: Sticker): { left: number; top: number } {
  const w = sticker.width * sticker.scaleX;
  const h = sticker.height * sticker.scaleY;
  const ox = { left: 0, center: w / 2, right: w }[sticker.originX];
  const oy = { top: 0, center: h / 2, bottom: h }[sticker.originY];
  const rad = (sticker.angle * Math.PI) / 180;
  return {
    left: sticker.left - (ox * Math.cos(rad) - oy * Math.sin(rad)),
    top: sticker.top - (ox * Math.sin(rad) + oy * Math.cos(rad)),
  };
}

/** Renames duplicates `id-2`, `id-3`, … so every id is unique; notes each rename. */
function uniqueIds<T>(
  items: T[],
  get: (item: T) => string,
  set: (item: T, id: string) => void,
  what: string,
  repaired: string[],
): void {
  const seen = new Set(items.map(get));
  const taken = new Set<string>();
  for (const item of items) {
    const id = get(item);
    if (!taken.has(id)) {
      taken.add(id);
      continue;
    }
    let n = 2;
    while (seen.has(`${id}-${n}`)) n++;
    const renamed = `${id}-${n}`;
    seen.add(renamed);
    taken.add(renamed);
    set(item, renamed);
    repaired.push(`${what} ${show(id)}: duplicate id renamed ${show(renamed)}`);
  }
}

/** Placeholder names in a text, `{{ name }}` → `name`. */
const placeholders = (text: string): Set<string> =>
  new Set(Array.from(text.matchAll(MERGE_FIELD), (m) => m[1]!));

/** Renames the placeholder `{{ from }}` to `{{to}}` in a text. */
const renamePlaceholder = (text: string, from: string, to: string): string =>
  text.replace(MERGE_FIELD, (whole, name: string) => (name === from ? `{{${to}}}` : whole));

/** The repairs across objects of a parsed document, in place: ids, sizes and parameter links. */
function repairLinks(document: DesignDocument, repaired: string[]): void {
  const snippets = document.text_snippets;
  uniqueIds(
    snippets,
    (s) => s.id,
    (s, id) => (s.id = id),
    'text snippet',
    repaired,
  );
  uniqueIds(
    document.graphics_data,
    (s) => s.uuid,
    (s, id) => (s.uuid = id),
    'sticker',
    repaired,
  );
  uniqueIds(
    snippets.flatMap((s) => s.parameters),
    (p) => p.id,
    (p, id) => (p.id = id),
    'parameter',
    repaired,
  );
  for (const snippet of snippets) {
    const label = `text snippet ${show(snippet.id)}`;
    if (snippet.minFontSize > snippet.fontSize) {
      repaired.push(
        `${label}: minFontSize ${snippet.minFontSize} lowered to the font size ${snippet.fontSize}`,
      );
      snippet.minFontSize = snippet.fontSize;
    }
    const names = new Set<string>();
    snippet.parameters = snippet.parameters.filter((parameter) => {
      const name = parameter.param_name;
      if (names.has(name)) {
        repaired.push(`${label}: second parameter named ${show(name)} removed`);
        return false;
      }
      names.add(name);
      if (parameter.text_snippet_id !== snippet.id) {
        repaired.push(`${label}: parameter ${show(name)} re-linked to its snippet`);
        parameter.text_snippet_id = snippet.id;
      }
      return true;
    });
    let inText = placeholders(snippet.text);
    snippet.parameters = snippet.parameters.filter((parameter) => {
      const name = parameter.param_name;
      if (inText.has(name) || parameter.dynamicStickerParamName !== null) return true;
      const old = parameter.original_param_name;
      if (old !== name && inText.has(old) && !names.has(old)) {
        snippet.text = renamePlaceholder(snippet.text, old, name);
        snippet.original_text = renamePlaceholder(snippet.original_text, old, name);
        inText = placeholders(snippet.text);
        repaired.push(`${label}: placeholder {{${old}}} re-linked to parameter ${show(name)}`);
        return true;
      }
      repaired.push(`${label}: parameter ${show(name)} has no {{${name}}} in the text; removed`);
      return false;
    });
  }
}
