/**
 * The contract of the `templates` routes (shared/routes.ts; docs/templates.md "Screens",
 * docs/templates.md "Model", docs/templates.md "Calls": "Dashboard lists", "Design actions",
 * "Templates and bundles (admin)"; docs/templates.md): the dashboard's template list, the editor's
 * Templates panel, a design from a template, and the admin's template calls. Also the shapes the
 * `bundles` contract shares (a template card, a bundle, a bundle option, the 0/1 status), since a
 * panel page carries bundles and a template save its bundle options. functions/templates parses its
 * input with these schemas.
 */
import { z } from 'zod';
import { DesignCardSchema, DesignListPageSchema, ListQuerySchema } from './designs.ts';
import { defineContract, IdParams } from './core.ts';
import { lengthAwarePage, PageQuery } from './paging.ts';

// ---------------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------------

/** Messages of the template calls (docs/editor.md "Messages" shows the server's message; texts are ours). */
export const TEMPLATE_MESSAGES = {
  saved: 'The template was saved.',
  updated: 'The template was updated.',
  deleted: 'The template was deleted.',
  enabled: 'The template was activated.',
  disabled: 'The template was deactivated.',
  noId: 'The picSnippetId field is required.',
  unknownBundle: 'The selected template bundle does not exist.',
  bundleName: 'A bundle name may not be greater than 100 characters.',
} as const;

/** `GET /getHomeTemplates`: the dashboard list query plus the tag filter and the status. */
export const HomeQuerySchema = ListQuerySchema.extend({
  tag: z.string().max(100, 'The tag may not be greater than 100 characters.').default(''),
  status: z
    .enum(['active', 'archived'], { error: 'The selected status is invalid.' })
    .default('active'),
});

/** `GET /getTemplates` (docs/templates.md "Calls": page, imageTag, type). */
export const PanelQuerySchema = PageQuery.extend({
  imageTag: z.string().max(100, 'The search may not be greater than 100 characters.').default(''),
  type: z
    .enum(['templates', 'templateBundles'], { error: 'The selected type is invalid.' })
    .default('templates'),
});

/**
 * docs/templates.md "Model": "status (0/1, true/false)": 0, 1, "0", "1", true or false, read as
 * enabled.
 */
export const StatusSchema = z
  .union([z.literal(0), z.literal(1), z.literal('0'), z.literal('1'), z.boolean()], {
    error: 'The status must be 0 or 1.',
  })
  .transform((v) => v === 1 || v === '1' || v === true);

/** A template named by `picSnippetId` or `templateId` (docs/templates.md "Calls"; one of the two). */
export const TemplateRefSchema = z
  .object({
    picSnippetId: z.string().min(1).max(200).optional(),
    templateId: z.string().min(1).max(200).optional(),
  })
  .refine((b) => b.picSnippetId ?? b.templateId, {
    message: TEMPLATE_MESSAGES.noId,
    path: ['picSnippetId'],
  })
  .transform((b) => ({ designId: (b.picSnippetId ?? b.templateId)! }));

/** `POST /admin/template/changeStatus`: a template and its status (0/1). */
export const TemplateStatusBody = z.intersection(
  TemplateRefSchema,
  z.object({ status: StatusSchema }),
);

/**
 * A bundle choice of the save modal's bundle select (docs/templates.md "Model": "Bundle select
 * option: key/id, template_id, label/name"): an existing bundle by `id` (or `key`), or a new one by
 * `name` (or `label`); a bare string is an id.
 */
export const BundleChoiceSchema = z.union([
  z.string().min(1).max(200),
  z.object({
    id: z.string().min(1).max(200).optional(),
    key: z.string().min(1).max(200).optional(),
    name: z.string().max(500).optional(),
    label: z.string().max(500).optional(),
  }),
]);
export type BundleChoice = z.infer<typeof BundleChoiceSchema>;

/** The body of `POST /admin/template/{action}` (docs/templates.md "Calls"). */
export const SaveTemplateSchema = z.object({
  picSnippetId: z.string().min(1, TEMPLATE_MESSAGES.noId).max(200),
  imageTags: z.array(z.string().max(500)).max(200).default([]),
  templateBundles: z.array(BundleChoiceSchema).max(50).default([]),
});
export type SaveTemplateInput = z.infer<typeof SaveTemplateSchema>;

// ---------------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------------

/**
 * A template as the lists show it (functions/templates/catalogue.ts `templateCard`;
 * docs/templates.md "Model" Template: id, image_id, pic_snippet_id, status, archived_at, tags): a
 * dashboard card plus its tags and base photo.
 */
export const TemplateCardSchema = DesignCardSchema.extend({
  pic_snippet_id: z.string(),
  image_id: z.string(),
  tags: z.array(z.string()),
});
export type TemplateCard = z.infer<typeof TemplateCardSchema>;

/**
 * A template bundle (functions/bundles/views.ts `bundleView`; docs/templates.md "Model": "Template
 * bundle": id, title, name, status (0/1), bundle_images (up to 6 on cards, all on the bundle edit
 * page and in the Bonus tab), teamsCount, created_at, archived_at).
 */
export const BundleViewSchema = z.object({
  id: z.string(),
  key: z.string(),
  title: z.string(),
  name: z.string(),
  label: z.string(),
  status: z.union([z.literal(0), z.literal(1)]),
  active: z.boolean(),
  /** Users count the enabled templates; admins every template of the bundle. */
  templatesCount: z.number().int(),
  teamsCount: z.number().int(),
  bundle_images: z.array(TemplateCardSchema),
  showurl: z.string(),
  editurl: z.string(),
  created_at: z.string(),
  archived_at: z.string().nullable(),
});
export type BundleView = z.infer<typeof BundleViewSchema>;

/**
 * A bundle as an option of the save modal's select (functions/templates/admin.ts
 * `bundleOption`; docs/templates.md "Model": "Bundle select option: key/id, template_id,
 * label/name"), `selected` when it holds the template the options were read for.
 */
export const BundleOptionSchema = z.object({
  id: z.string(),
  key: z.string(),
  name: z.string(),
  label: z.string(),
  status: z.union([z.literal(0), z.literal(1)]),
  template_id: z.string().nullable(),
  selected: z.boolean(),
});
export type BundleOption = z.infer<typeof BundleOptionSchema>;

/** `{ success, message }` of an admin call, with what the call adds. */
const Done = z.object({ success: z.literal(true), message: z.string() });

/** The `templates` routes' contracts, by route key. */
export const TEMPLATES_CONTRACT = {
  'GET /getHomeTemplates': defineContract({
    query: HomeQuerySchema,
    answer: z.object({
      /** Dashboard cards; a list filtered by `tag` carries template cards (with their tags). */
      templates: DesignListPageSchema.extend({
        data: z.array(
          TemplateCardSchema.partial({ pic_snippet_id: true, image_id: true, tags: true }),
        ),
      }),
    }),
    errors: [403],
  }),
  'GET /getTemplates': defineContract({
    query: PanelQuerySchema,
    answer: z.object({
      success: z.literal(true),
      /** The Global tab's page (empty for the Bonus tab). */
      templates: lengthAwarePage(TemplateCardSchema),
      /** The Bonus tab: the team's bundles holding a matching template (empty for Global). */
      templatesBundles: z.object({ data: z.array(BundleViewSchema) }),
      /** The other tags of the templates found (the tag editor's related tags). */
      related_tags: z.array(z.string()),
    }),
  }),
  'POST /pic-snippet/{id}/createFromTemplate': defineContract({
    params: IdParams,
    answer: z.object({ success: z.literal(true), newPicSnippetId: z.string() }),
    status: 201,
    errors: [403],
  }),
  'POST /admin/template/changeStatus': defineContract({
    body: TemplateStatusBody,
    answer: Done.extend({ template: TemplateCardSchema }),
  }),
  'DELETE /admin/template/delete': defineContract({
    body: TemplateRefSchema,
    answer: Done,
  }),
  'POST /admin/template/{action}': defineContract({
    /** `save` or `update`; another action answers 404. */
    params: z.object({ action: z.enum(['save', 'update']) }),
    body: SaveTemplateSchema,
    answer: Done.extend({
      template: TemplateCardSchema,
      /** The design's new version. */
      version: z.number().int(),
      imageTags: z.array(z.string()),
      bundles: z.array(BundleOptionSchema),
    }),
  }),
} as const;
