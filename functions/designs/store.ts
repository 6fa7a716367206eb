/**
 * Design storage (docs/adr/0019-design-api-shapes.md "Design API shapes"): one DynamoDB item per
 * design, with its text snippets, parameters and stickers nested in `document`. Every write is a
 * read-modify-write that checks `version` and bumps it, so a stale write gets 409 with the current
 * version and nothing is overwritten.
 *
 * The API other features use (text-snippet parameters, templates):
 * - `loadDesign(teamId, designId)`: the design of the caller's current team, else 404;
 * - `updateDesign(teamId, designId, expectedVersion, change)`: the versioned write;
 * - `designView(record)` (views.ts): the API shape of
 *   docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and
 *   restore".
 */
import type { EntityItem } from 'electrodb';
import { invalidateDesignRenders } from '#lib/cdn.ts';
import { db, isConditionFailure } from '#lib/db/index.ts';
import type { Entities } from '#lib/db/entities.ts';
import type { AuthContext } from '#lib/auth.ts';
import {
  conflict,
  forbidden,
  notFound,
  payloadTooLarge,
  unauthenticated,
  validationFailed,
} from '#lib/errors.ts';
import { DesignDocumentSchema, parseDesignDocument, type DesignDocument } from '#shared/design.ts';

/** A stored design as ElectroDB reads it. */
export type DesignRecord = EntityItem<Entities['Design']>;

/** Design status (docs/adr/0018-design-lists.md "Design lists": active ⇄ archived). */
export type DesignStatus = DesignRecord['status'];

/** The spec's word for a design in messages the user reads. */
const PRODUCT = 'PicSnippet';

/** Messages of this module (the spec gives none for these cases). */
export const STORE_MESSAGES = {
  notFound: `This ${PRODUCT} does not exist.`,
  stale: `This ${PRODUCT} was changed in the meantime. Reload it to get the latest version.`,
  tooLarge: `This ${PRODUCT} is too large to save.`,
} as const;

/**
 * Largest design item stored, bytes of JSON: DynamoDB's item limit is 400 KB, and the rest of
 * the item (keys, title, indexes) needs room.
 */
export const MAX_DOCUMENT_BYTES = 350 * 1024;

/** Retries of a write without an expected version when a concurrent write got in first. */
const UNVERSIONED_RETRIES = 4;

/**
 * The caller's current team (`auth.user.currentTeamId`, kept by the teams feature when a member
 * leaves or a team is deleted), whose designs every call works on.
 * @throws AppError 401 without a signed-in user.
 */
export function currentTeam(auth: AuthContext): string | undefined {
  if (!auth.user) throw unauthenticated();
  return auth.user.currentTeamId;
}

/**
 * Reads a design of the caller's current team.
 * @param teamId the caller's current team (`auth.user.currentTeamId`); undefined finds nothing.
 * @param designId the design id (the `{id}` of `/api/pic-snippet/{id}`).
 * @returns the stored record (its `document` as stored; validate it with the document module).
 * @throws AppError 404 when the design does not exist or belongs to another team, so other
 *   teams' ids do not leak (docs/security.md "Authorization matrix").
 */
export async function loadDesign(
  teamId: string | undefined,
  designId: string,
): Promise<DesignRecord> {
  if (!teamId || !designId) throw notFound(STORE_MESSAGES.notFound);
  const record = (await db().Design.get({ designId }).go({ consistent: true })).data;
  if (!record || record.teamId !== teamId) throw notFound(STORE_MESSAGES.notFound);
  return record;
}

/**
 * Reads an enabled template (a design with `isTemplate`, status active), whatever its team:
 * templates are global (docs/adr/0023-team-roles.md "Team roles": "Other users only use templates
 * by creating designs from them").
 * @throws AppError 404 when there is no such design, it is not a template, or it is disabled.
 */
export async function loadTemplate(designId: string): Promise<DesignRecord> {
  const record = designId ? (await db().Design.get({ designId }).go()).data : null;
  if (!record || record.isTemplate !== true || record.status !== 'active') {
    throw notFound(STORE_MESSAGES.notFound);
  }
  return record;
}

/**
 * What a write changes. Omitted fields stay as stored; `archivedAt: null` removes it.
 * `document` is validated strictly with `DesignDocumentSchema` (older schema versions
 * migrated, defaults applied, nothing repaired) before anything is written.
 */
export interface DesignChanges {
  title?: string;
  document?: DesignDocument | Record<string, unknown>;
  status?: DesignStatus;
  isTemplate?: boolean;
  archivedAt?: string | null;
  /** The campaign (docs/analytics.md "Campaigns"); '' clears it. */
  campaign?: string;
}

/**
 * A change function: receives the current record (its document validated) and returns the
 * changes, or `null` when there is nothing to save (then nothing is written and the version
 * stays, e.g. docs/editor.md "Editing rules": "Unchanged titles are not saved"). It may throw an
 * AppError (422, 403…) to refuse the change; nothing is written then.
 */
export type DesignChange = (
  record: DesignRecord & { document: DesignDocument },
) => DesignChanges | null | Promise<DesignChanges | null>;

export interface UpdateOptions {
  /**
   * Invalidate the design's cached renders after the write (functions/lib/cdn.ts). Default:
   * when the document or the status changed (what a render draws); a title is not drawn.
   */
  invalidate?: boolean;
}

/**
 * The versioned read-modify-write of a design (docs/adr/0019-design-api-shapes.md "Design API
 * shapes").
 *
 * Reads the design (404 as `loadDesign`), refuses a stale `expectedVersion` with 409, runs
 * `change`, validates the new document, and writes with the condition `version = read
 * version`, setting `version + 1` and `updatedAt` (ISO 8601). Without an `expectedVersion` the
 * caller claims no version, so a concurrent write between the read and the write is retried
 * on the fresh record (up to 4 times) instead of failing.
 *
 * @param teamId the caller's current team.
 * @param designId the design.
 * @param expectedVersion the version the caller last read, or undefined.
 * @param change computes the changes from the current record.
 * @returns the record as written (or as read when `change` returned null).
 * @throws AppError 404 (missing or another team's), 409 `{ message, version }` with the
 *   current version when `expectedVersion` is stale or a concurrent write won, 413 when the
 *   document exceeds {@link MAX_DOCUMENT_BYTES}, 422 when the new document is invalid, and
 *   whatever `change` throws.
 */
export async function updateDesign(
  teamId: string | undefined,
  designId: string,
  expectedVersion: number | undefined,
  change: DesignChange,
  options: UpdateOptions = {},
): Promise<DesignRecord> {
  for (let attempt = 0; ; attempt++) {
    const record = await loadDesign(teamId, designId);
    if (expectedVersion !== undefined && record.version !== expectedVersion) {
      throw staleVersion(record.version);
    }
    const document = parseDesignDocument(record.document);
    const changes = await change({ ...record, document });
    if (changes === null) return record;
    try {
      const written = await writeDesign(record, changes);
      const invalidate = options.invalidate ?? (changes.document !== undefined || !!changes.status);
      if (invalidate) await invalidateDesignRenders(record.publicId);
      return written;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const current = await currentVersion(designId);
      if (current === undefined) throw notFound(STORE_MESSAGES.notFound);
      if (expectedVersion !== undefined || attempt + 1 >= UNVERSIONED_RETRIES) {
        throw staleVersion(current);
      }
    }
  }
}

/**
 * Writes `changes` over `record` with the version condition. List keys (listKey, titleSort,
 * listedViews) are rebuilt from the full new values, so every dashboard index stays right.
 * @throws the condition failure of DynamoDB when the version moved on.
 */
async function writeDesign(record: DesignRecord, changes: DesignChanges): Promise<DesignRecord> {
  // Strict: a submitted document is refused (422 with field errors), never silently repaired;
  // repairs are for stored documents on load.
  const document =
    changes.document === undefined ? undefined : DesignDocumentSchema.parse(changes.document);
  if (document && Buffer.byteLength(JSON.stringify(document)) > MAX_DOCUMENT_BYTES) {
    throw payloadTooLarge(STORE_MESSAGES.tooLarge);
  }
  const next = {
    teamId: record.teamId,
    status: changes.status ?? record.status,
    isTemplate: changes.isTemplate ?? record.isTemplate ?? false,
    title: changes.title ?? record.title,
    version: record.version + 1,
    updatedAt: new Date().toISOString(),
    listedViews: record.counter ?? 0,
    ...(document ? { document: storableDocument(document) } : {}),
    ...(typeof changes.archivedAt === 'string' ? { archivedAt: changes.archivedAt } : {}),
    ...(changes.campaign !== undefined ? { campaign: changes.campaign } : {}),
  };
  let update = db()
    .Design.patch({ designId: record.designId })
    .set(next)
    .composite({ createdAt: record.createdAt });
  if (changes.archivedAt === null) update = update.remove(['archivedAt']);
  const out = await update
    .where((attr, op) => op.eq(attr.version, record.version))
    .go({ response: 'all_new' });
  return out.data as DesignRecord;
}

/** DynamoDB's number range: magnitudes from 1e-130 to 9.99e125 (and 0). */
const DYNAMO_SMALLEST = 1e-130;
const DYNAMO_LARGEST = 9.99e125;
/** Nesting a document may have; deeper is refused (a design is a few levels deep). */
const MAX_DOCUMENT_DEPTH = 32;

/**
 * A design document as DynamoDB can store it (its number range, docs/adr/0019-design-api-shapes.md
 * "Design API shapes"): a number closer to zero than DynamoDB can hold (`top: -8e-248`, a fraction
 * of a pixel) is stored as 0, which draws the same; a number beyond its range is refused.
 * test/integration/fuzz.test.ts found both as 500s.
 * @returns the document with such tiny numbers as 0 (the input is not changed).
 * @throws AppError 422 naming the field when a number is too large or the nesting too deep.
 */
export function storableDocument<T>(document: T): T {
  const walk = (value: unknown, path: string, depth: number): unknown => {
    if (typeof value === 'number') {
      const size = Math.abs(value);
      if (size !== 0 && size < DYNAMO_SMALLEST) return 0;
      if (size > DYNAMO_LARGEST) {
        throw validationFailed({ [path || 'document']: ['The number is too large.'] });
      }
      return value;
    }
    if (value === null || typeof value !== 'object') return value;
    if (depth >= MAX_DOCUMENT_DEPTH) {
      throw validationFailed({ [path || 'document']: ['The design is nested too deeply.'] });
    }
    if (Array.isArray(value)) return value.map((v, i) => walk(v, `${path}.${i}`, depth + 1));
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, walk(v, path ? `${path}.${k}` : k, depth + 1)]),
    );
  };
  return walk(document, '', 0) as T;
}

/** The stored version, read strongly consistent; undefined when the design is gone. */
async function currentVersion(designId: string): Promise<number | undefined> {
  const found = await db()
    .Design.get({ designId })
    .go({ consistent: true, attributes: ['version'] });
  return found.data?.version;
}

/** 409 with the current version (docs/adr/0019-design-api-shapes.md "Design API shapes": "a stale write gets 409 with the current version"). */
export const staleVersion = (version: number) => conflict(STORE_MESSAGES.stale, { version });

/** docs/adr/0018-design-lists.md "Design lists" / docs/adr/0023-team-roles.md "Team roles": actions a frozen team cannot take. */
export type FrozenAction = 'create' | 'archive' | 'clone' | 'activate';

/**
 * Refuses an action of a frozen team (docs/adr/0018-design-lists.md "Design lists": "Frozen
 * accounts cannot archive, clone, activate or create"; `Team.frozen`, set by billing or an admin).
 * @throws AppError 403 naming the action, or 404 when the team does not exist.
 */
export async function assertTeamNotFrozen(
  teamId: string | undefined,
  action: FrozenAction,
): Promise<void> {
  const team = teamId ? (await db().Team.get({ teamId }).go()).data : null;
  if (!team) throw notFound('You have no current team.');
  if (team.frozen) throw forbidden(frozenMessage(action));
}

/** The 403 message of a frozen team's refused action. */
export const frozenMessage = (action: FrozenAction): string =>
  `Your team's account is frozen, so you cannot ${action} ${PRODUCT}s. ` +
  'Check the subscription in the team settings or contact support.';

/**
 * Adds views to a design and copies the new count into the views sort key (`listedViews`), so
 * sorting by views stays right. Called by the render service's view flush
 * (functions/render/handler.ts; docs/adr/0018-design-lists.md "Design lists").
 * @param designId the design; a missing design is ignored.
 * @param views how many views to add (> 0).
 */
export async function recordDesignViews(designId: string, views: number): Promise<void> {
  for (let attempt = 0; attempt < UNVERSIONED_RETRIES * 2; attempt++) {
    const found = (
      await db()
        .Design.get({ designId })
        .go({
          consistent: true,
          attributes: ['counter', 'listKey', 'designId', 'teamId', 'status', 'isTemplate'],
        })
    ).data;
    if (!found) return;
    const counter = (found.counter ?? 0) + views;
    // An item written before list keys existed gets its list key now (from its own fields).
    const list = found.listKey
      ? {}
      : { teamId: found.teamId, status: found.status, isTemplate: found.isTemplate ?? false };
    let update = db()
      .Design.patch({ designId })
      .set({ counter, listedViews: counter, countedAt: new Date().toISOString(), ...list });
    if (found.listKey) update = update.composite({ listKey: found.listKey });
    try {
      await update
        .where((attr, op) =>
          found.counter === undefined
            ? op.notExists(attr.counter)
            : op.eq(attr.counter, found.counter),
        )
        .go({ response: 'none' });
      return;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
  throw conflict('The view count is busy; try again.');
}
