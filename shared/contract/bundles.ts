/**
 * The contract of the `bundles` routes (shared/routes.ts; docs/templates.md "Screens" Template
 * Bundles, docs/templates.md "Model" "Bundle", docs/templates.md "Calls": "Dashboard lists" and
 * "Templates and bundles (admin)"; docs/templates.md): the dashboard's bundle list and one bundle,
 * the save modal's bundle options, and the admin's bundle calls. The bundle and option shapes are
 * the templates contract's. functions/bundles parses its input with these schemas.
 */
import { z } from 'zod';
import { defineContract } from './core.ts';
import { lengthAwarePage, PageQuery } from './paging.ts';
import { BundleOptionSchema, BundleViewSchema, StatusSchema } from './templates.ts';

// ---------------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------------

/** Most teams on one bundle (keeps the bundle's item far below DynamoDB's 400 KB). */
export const MAX_BUNDLE_TEAMS = 2000;

/** Messages of the bundle calls' input (texts are ours; the spec shows the server's message). */
export const BUNDLE_INPUT_MESSAGES = {
  noBundle: 'The bundleId field is required.',
  tooManyTeams: `A bundle may be assigned to at most ${MAX_BUNDLE_TEAMS} teams.`,
} as const;

/** A bundle, template or team id. */
const Id = z.string().min(1).max(200);

/** A bundle named by `bundleId` (or `templateBundleId`, `id`, as the spec's calls name it). */
export const BundleRefSchema = z
  .object({ bundleId: Id.optional(), templateBundleId: Id.optional(), id: Id.optional() })
  .refine((b) => b.bundleId ?? b.templateBundleId ?? b.id, {
    message: BUNDLE_INPUT_MESSAGES.noBundle,
    path: ['bundleId'],
  })
  .transform((b) => ({ bundleId: (b.bundleId ?? b.templateBundleId ?? b.id)! }));

/** `POST /get-template-bundle?page=` with an optional `bundleId` (query or body). */
export const BundleListQuery = PageQuery.extend({
  bundleId: Id.optional(),
});

/** `POST /get-template-bundle`'s body: one bundle's id, or nothing for the list. */
export const BundleListBody = z.object({ bundleId: Id.optional() }).default({});

/** `POST /get-all-template-bundle`: the template the options are marked for (or null). */
export const BundleOptionsBody = z.object({ id: Id.nullable().optional() }).default({});

/** `POST /admin/templateBundle/changeBundleStatus`: a bundle and its status (0/1). */
export const BundleStatusBody = z.intersection(BundleRefSchema, z.object({ status: StatusSchema }));

/** `POST /admin/templateBundle/assignTeams`: the bundle's teams become exactly `teamIds`. */
export const AssignTeamsBody = z.intersection(
  BundleRefSchema,
  z.object({
    teamIds: z.array(Id).max(MAX_BUNDLE_TEAMS, BUNDLE_INPUT_MESSAGES.tooManyTeams),
  }),
);

/**
 * `DELETE /admin/templateBundle/deletePicSnippet`: a template leaves one bundle (`bundleId`) or
 * every bundle; `currentPicsnippetId` is the design open in the caller's editor.
 */
export const RemoveTemplateBody = z.object({
  picSnippetId: Id,
  currentPicsnippetId: Id.nullable().optional(),
  bundleId: Id.optional(),
});

// ---------------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------------

/** A team of a bundle (`{ id, name }`, A to Z). */
export const BundleTeamSchema = z.object({ id: z.string(), name: z.string() });

/** `{ success, message }` of an admin call, with what the call adds. */
const Done = z.object({ success: z.literal(true), message: z.string() });

/** The `bundles` routes' contracts, by route key. */
export const BUNDLES_CONTRACT = {
  'POST /get-template-bundle': defineContract({
    query: BundleListQuery,
    body: BundleListBody,
    /** The list (15 a page, up to 6 templates a bundle), or with `bundleId` the one bundle. */
    answer: z.union([
      z.object({
        success: z.literal(true),
        bundles: lengthAwarePage(BundleViewSchema),
      }),
      z.object({ success: z.literal(true), bundle: BundleViewSchema }),
    ]),
  }),
  'POST /get-all-template-bundle': defineContract({
    body: BundleOptionsBody,
    answer: z.object({ success: z.literal(true), bundles: z.array(BundleOptionSchema) }),
  }),
  'POST /admin/templateBundle/getBundleTeams': defineContract({
    body: BundleRefSchema,
    answer: z.object({ success: z.literal(true), teams: z.array(BundleTeamSchema) }),
  }),
  'POST /admin/templateBundle/changeBundleStatus': defineContract({
    body: BundleStatusBody,
    answer: Done.extend({ bundle: BundleViewSchema }),
    errors: [409],
  }),
  'POST /admin/templateBundle/assignTeams': defineContract({
    body: AssignTeamsBody,
    answer: Done.extend({
      teams: z.array(BundleTeamSchema),
      teamsCount: z.number().int(),
    }),
    errors: [409],
  }),
  'DELETE /admin/templateBundle/deleteBundle': defineContract({
    body: BundleRefSchema,
    answer: Done,
  }),
  'DELETE /admin/templateBundle/deletePicSnippet': defineContract({
    body: RemoveTemplateBody,
    /**
     * `current`: the template was the design open in the caller's editor, now a plain design
     * without tags (`version`, `imageTags`); `bundles`: the ids of the bundles it left.
     */
    answer: z.union([
      Done.extend({
        current: z.literal(true),
        bundles: z.array(z.string()),
        version: z.number().int(),
        imageTags: z.array(z.string()),
      }),
      Done.extend({ current: z.literal(false), bundles: z.array(z.string()) }),
    ]),
    errors: [409],
  }),
} as const;
