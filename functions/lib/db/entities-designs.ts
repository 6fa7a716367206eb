/**
 * Designs: the design with its dashboard lists, its kept snapshots, and template bundles
 * (docs/adr/0018-design-lists.md "Design lists").
 */
import { Entity } from 'electrodb';
import { type EntityKit, SERVICE, gsi, now } from './entity-kit.ts';

/** A dashboard list index of designs: one list (`listKey`) ordered by `sortAttribute`. */
const designListIndex = <S extends string>(n: 1 | 3 | 4 | 5, sortAttribute: S) =>
  ({
    index: gsi(n).indexName,
    pk: { field: gsi(n).partitionKey, composite: ['listKey'] },
    sk: { field: gsi(n).sortKey, composite: [sortAttribute, 'designId'] },
  }) as const;

/** Width of `titleSort`, characters: enough to order any two real titles, well under key limits. */
const TITLE_SORT_LENGTH = 64;

/**
 * The list a design is in: `team:{teamId}:{status}`, or `templates:{status}` for a template
 * (a template's status is its enabled/disabled state, docs/adr/0018-design-lists.md "Design
 * lists"). Templates are listed across teams, not in their team's lists.
 * @throws Error when `teamId` or `status` is missing (a write that changes one of the three
 *   attributes must set all three).
 */
export function designListKey(item: Record<string, unknown>): string {
  const { teamId, status, isTemplate } = item;
  if (typeof status !== 'string' || (isTemplate !== true && typeof teamId !== 'string')) {
    throw new Error('a design list key needs teamId, status and isTemplate together');
  }
  return isTemplate === true ? `templates:${status}` : `team:${teamId}:${status}`;
}

/**
 * A title as the name sort compares it: accents and case folded (`Éclair` sorts with
 * `eclair`), whitespace runs and control characters made single spaces, cut and padded with
 * spaces to a fixed width so that `abc` sorts before `abc def` inside the composite key.
 */
export function designTitleSortKey(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[\s\p{Cc}]+/gu, ' ')
    .trim()
    .slice(0, TITLE_SORT_LENGTH)
    .padEnd(TITLE_SORT_LENGTH, ' ');
}

/** Builds every entity against one table and client. */

/** Builds these entities against one table. */
export function designsEntities({ opts, primary }: EntityKit) {
  const Design = new Entity(
    {
      model: { entity: 'design', version: '1', service: SERVICE },
      attributes: {
        designId: { type: 'string', required: true },
        teamId: { type: 'string', required: true },
        /** The public render id in `/r/{publicId}`; created once. */
        publicId: { type: 'string', required: true, readOnly: true },
        status: { type: ['active', 'archived'] as const, required: true, default: 'active' },
        title: { type: 'string', required: true },
        isTemplate: { type: 'boolean', default: false },
        /** Optimistic lock: every write checks and bumps it (docs/infra.md "What the stack creates"). */
        version: { type: 'number', required: true, default: 1 },
        /** The design document (shared/design.ts), validated with zod at the edges. */
        document: { type: 'any', required: true },
        /**
         * Views (docs/adr/0014-the-design-document-versions-and-restore.md "The design document:
         * versions and restore" `counter`): opens, the render URL's answers to anyone but a mail
         * proxy, flushed in aggregate by the render service (functions/render/service.ts
         * `ViewCounter`). Before proxies were told apart it counted their fetches too.
         */
        counter: { type: 'number', default: 0 },
        /**
         * The render URL's answers to mail image proxies (functions/render/mail-proxies.ts):
         * prefetches and proxied opens, which cannot be told apart. Absent on older designs: 0.
         */
        proxyFetches: { type: 'number' },
        /**
         * When the render last added to `counter` or `proxyFetches` (ISO 8601): the design page
         * and the dashboard say how fresh the counts are (docs/analytics.md "Counts on the
         * dashboard"). Absent: never counted.
         */
        countedAt: { type: 'string' },
        /**
         * The campaign the design is in (docs/analytics.md "Campaigns"): a name of 1–60
         * characters, '' or absent for none. Set by `PUT /api/pic-snippet/{id}/campaign`.
         */
        campaign: { type: 'string' },
        createdAt: { type: 'string', default: now, readOnly: true },
        /** Set by design writes (docs/adr/0019-design-api-shapes.md "Design API shapes"); view counts and renders never touch it. */
        updatedAt: { type: 'string', default: now },
        archivedAt: { type: 'string' },
        /**
         * The dashboard list the design is in (functions/designs/lists.ts,
         * docs/adr/0018-design-lists.md "Design lists"): `team:{teamId}:{status}`, or
         * `templates:{status}` for a template. Derived; a write that changes `teamId`, `status` or
         * `isTemplate` must set all three.
         */
        listKey: {
          type: 'string',
          watch: ['teamId', 'status', 'isTemplate'],
          set: (_value: unknown, item: Record<string, unknown>) => designListKey(item),
        },
        /** The title as the name sort compares it (`designTitleSortKey`); derived from `title`. */
        titleSort: {
          type: 'string',
          watch: ['title'],
          set: (_value: unknown, item: Record<string, unknown>) =>
            designTitleSortKey(String(item.title ?? '')),
        },
        /**
         * `counter` as of the design's last write or view flush, the key of the views sort: the
         * render service adds views with an atomic ADD that cannot rebuild a string key, so the
         * sort key is copied by `recordDesignViews` (functions/designs/store.ts).
         */
        listedViews: { type: 'number', default: 0, padding: { length: 12, char: '0' } },
      },
      indexes: {
        byId: {
          pk: { ...primary.pk, composite: ['designId'] },
          sk: { ...primary.sk, composite: [] },
        },
        /** A list by last update (the dashboard's default sort, docs/adr/0020-dashboard-spa.md "Dashboard SPA"). */
        byListUpdated: designListIndex(1, 'updatedAt'),
        byPublicId: {
          index: gsi(2).indexName,
          pk: { field: gsi(2).partitionKey, composite: ['publicId'] },
          sk: { field: gsi(2).sortKey, composite: [] },
        },
        byListCreated: designListIndex(3, 'createdAt'),
        byListName: designListIndex(4, 'titleSort'),
        byListViews: designListIndex(5, 'listedViews'),
      },
    },
    opts,
  );

  /**
   * A design as it was at one version, kept when Generate names that version in the export's
   * URL (`/r/{publicId}/v{version}`, docs/export.md "Cache id"): the render service draws
   * it for that URL after later edits, so e-mails already sent keep their image. Its own
   * partition (`snapshotOf`), never listed; written once per version, never changed.
   */
  const DesignSnapshot = new Entity(
    {
      model: { entity: 'designsnapshot', version: '1', service: SERVICE },
      attributes: {
        snapshotOf: { type: 'string', required: true },
        version: { type: 'number', required: true },
        /** The design document (shared/design.ts) as stored at that version. */
        document: { type: 'any', required: true },
        createdAt: { type: 'string', default: now, readOnly: true },
      },
      indexes: {
        byVersion: {
          pk: { ...primary.pk, composite: ['snapshotOf'] },
          sk: { ...primary.sk, composite: ['version'] },
        },
      },
    },
    opts,
  );

  /**
   * A template bundle (docs/adr/0014-the-design-document-versions-and-restore.md "The design
   * document: versions and restore": "Template bundle": id, title/name, status, bundle_images,
   * teams, created_at, archived_at): a set of templates an admin assigns to teams, whose members
   * see its templates in the editor's Bonus tab. The template ids and team ids are lists on the
   * bundle (docs/templates.md "Storage and queries"): bundles are few, so every bundle call is one
   * query of `all` (or one get) plus one batch get of the templates or teams it shows. Writes check
   * `version` (optimistic lock).
   */
  const TemplateBundle = new Entity(
    {
      model: { entity: 'templatebundle', version: '1', service: SERVICE },
      attributes: {
        bundleId: { type: 'string', required: true },
        name: { type: 'string', required: true },
        /** docs/adr/0018-design-lists.md "Design lists": "Bundle: status 0/1": `active` is 1. */
        status: { type: ['active', 'inactive'] as const, required: true, default: 'active' },
        /** Template design ids, in the order they joined the bundle. */
        templateIds: { type: 'list', items: { type: 'string' }, default: () => [] },
        /** Ids of the teams the bundle is assigned to. */
        teamIds: { type: 'list', items: { type: 'string' }, default: () => [] },
        version: { type: 'number', required: true, default: 1 },
        createdAt: { type: 'string', default: now, readOnly: true },
        updatedAt: { type: 'string', default: now },
        /** Set while the bundle is deactivated (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and restore" `archived_at`). */
        archivedAt: { type: 'string' },
      },
      indexes: {
        byId: {
          pk: { ...primary.pk, composite: ['bundleId'] },
          sk: { ...primary.sk, composite: [] },
        },
        all: {
          index: gsi(1).indexName,
          pk: { field: gsi(1).partitionKey, composite: [] },
          sk: { field: gsi(1).sortKey, composite: ['createdAt', 'bundleId'] },
        },
      },
    },
    opts,
  );

  return { Design, DesignSnapshot, TemplateBundle };
}
