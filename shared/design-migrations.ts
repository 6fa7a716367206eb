/**
 * The ordered migrations of the design document
 * (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and
 * restore": "Versioned schema with migrations beside it"). A stored document carries
 * `schemaVersion`; loading it runs every migration above that version, in order, before the zod
 * schemas of `shared/design.ts` validate it.
 *
 * Migrations work on raw JSON (whatever DynamoDB holds), never on the schema types: they are
 * frozen once released, while the schemas keep evolving. Each one is pure: it returns a new
 * document and leaves its argument untouched, and it tolerates missing or malformed fields
 * (those are for `restoreDesign`'s repairs, not for the migration, to judge).
 */

/** A design document as stored: JSON of unknown shape. */
export type RawDocument = Record<string, unknown>;

/** One step of the migration list: the version it produces and the pure function doing it. */
export interface DesignMigration {
  /** The schema version the migration produces; it runs on documents of version `to - 1`. */
  to: number;
  /** What changed, for humans and for the restore notes. */
  description: string;
  migrate: (doc: RawDocument) => RawDocument;
}

/** The schema version new and restored documents carry. */
export const CURRENT_SCHEMA_VERSION = 5 as const;

/** True for a plain JSON object (not an array, not null). */
export const isRecord = (value: unknown): value is RawDocument =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const mapRecords = (list: unknown, fn: (item: RawDocument) => RawDocument): unknown =>
  Array.isArray(list) ? list.map((item) => (isRecord(item) ? fn(item) : item)) : list;

/**
 * Version 1 → 2: the full docs/adr/0014-the-design-document-versions-and-restore.md "The design
 * document: versions and restore" shape.
 *
 * Version 1 is what the foundation and the render code wrote: text snippets with an optional
 * `minFontSize` (absent meant half the font size at draw time), parameters with only `id`,
 * `param_name`, `param_default_value` and `text_transform`, where a blank fallback could be
 * `''`. Version 2 stores the spec's derived fields explicitly:
 * - text snippet `minFontSize` ← round(`fontSize` / 2) when absent (32 px when the font size
 *   is absent too: the schema default);
 * - text snippet `original_text` ← `text` when absent;
 * - parameter `text_snippet_id` ← the owning snippet's `id`, `original_param_name` ←
 *   `param_name`, and a blank `param_default_value` (empty or whitespace) ← `' '`
 *   (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and
 *   restore": "a blank is stored as a single space").
 * Every other new field of version 2 is optional or has a plain default in the schema.
 */
export function migrateV1ToV2(doc: RawDocument): RawDocument {
  return {
    ...doc,
    schemaVersion: 2,
    text_snippets: mapRecords(doc.text_snippets, (snippet) => {
      const fontSize = typeof snippet.fontSize === 'number' ? snippet.fontSize : 32;
      return {
        ...snippet,
        minFontSize: snippet.minFontSize ?? Math.round(fontSize / 2),
        original_text: snippet.original_text ?? snippet.text,
        parameters: mapRecords(snippet.parameters, (parameter) => ({
          ...parameter,
          text_snippet_id: parameter.text_snippet_id ?? snippet.id,
          original_param_name: parameter.original_param_name ?? parameter.param_name,
          ...(typeof parameter.param_default_value === 'string' &&
          parameter.param_default_value.trim() === ''
            ? { param_default_value: ' ' }
            : {}),
        })),
      };
    }),
  };
}

/**
 * Version 2 → 3: countdown timers (docs/adr/0058-countdown-timers.md "Countdown timers"). A sticker
 * may be a `countdown` dynamic sticker with its settings in `countdown`; every sticker of an older
 * document gets `countdown: null`, so nothing it draws changes.
 */
export function migrateV2ToV3(doc: RawDocument): RawDocument {
  return {
    ...doc,
    schemaVersion: 3,
    graphics_data: mapRecords(doc.graphics_data, (sticker) => ({
      ...sticker,
      countdown: sticker.countdown ?? null,
    })),
  };
}

/**
 * Version 3 → 4: rule sets (docs/rules.md). Every older document gets `rules: []` and
 * `hidden_stickers: []`: no rule matches, nothing is hidden, so it draws and links as before.
 */
export function migrateV3ToV4(doc: RawDocument): RawDocument {
  return {
    ...doc,
    schemaVersion: 4,
    rules: doc.rules ?? [],
    hidden_stickers: doc.hidden_stickers ?? [],
  };
}

/**
 * Version 4 → 5: data bindings (docs/data-sources.md "Binding a design"). Every older document
 * gets `data_bindings: []`: nothing is looked up, so it draws as before.
 */
export function migrateV4ToV5(doc: RawDocument): RawDocument {
  return { ...doc, schemaVersion: 5, data_bindings: doc.data_bindings ?? [] };
}

/** Every migration in order; the last one produces `CURRENT_SCHEMA_VERSION`. */
export const DESIGN_MIGRATIONS: readonly DesignMigration[] = [
  {
    to: 2,
    description: 'full spec 000 §3 shape (minFontSize, original_text, parameter links)',
    migrate: migrateV1ToV2,
  },
  { to: 3, description: 'countdown timer stickers (countdown: null)', migrate: migrateV2ToV3 },
  { to: 4, description: 'rule sets (rules: [], hidden_stickers: [])', migrate: migrateV3ToV4 },
  { to: 5, description: 'data bindings (data_bindings: [])', migrate: migrateV4ToV5 },
];

/**
 * The version a stored document claims: `schemaVersion`, or 1 when absent (version 1 had the
 * field defaulted, so early documents may lack it). Anything that is not a positive integer
 * gives `undefined`.
 */
export function storedSchemaVersion(doc: RawDocument): number | undefined {
  const version = doc.schemaVersion ?? 1;
  return typeof version === 'number' && Number.isInteger(version) && version >= 1
    ? version
    : undefined;
}

/**
 * Runs the migrations from `from` up to `CURRENT_SCHEMA_VERSION`.
 * @param from the document's version (see `storedSchemaVersion`); at most the current one.
 * @returns the migrated document (a new object when any migration ran) and the migrations
 *   applied, oldest first.
 */
export function migrateDesignDocument(
  doc: RawDocument,
  from: number,
): { doc: RawDocument; applied: DesignMigration[] } {
  const applied = DESIGN_MIGRATIONS.filter((m) => m.to > from);
  return { doc: applied.reduce((d, m) => m.migrate(d), doc), applied };
}
