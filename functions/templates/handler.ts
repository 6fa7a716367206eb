/**
 * The `templates` feature's Lambda (docs/templates.md "Screens", docs/templates.md "Model",
 * docs/templates.md "Calls"; docs/templates.md):
 * - `GET /getHomeTemplates`: the dashboard's View Templates list, with the dashboard's sorts
 *   and pages, filtered by `tag` (onboarding's address); admins may list the disabled ones
 *   (`status=archived`) to activate them again;
 * - `GET /getTemplates`: the editor's Templates panel, Global (`type=templates`) and Bonus
 *   (`type=templateBundles`), searched by `imageTag`, with the related tags of the search;
 * - `POST /pic-snippet/{id}/createFromTemplate`: a new design of the caller's team;
 * - the admin calls `/admin/template/changeStatus`, `/admin/template/delete` and
 *   `/admin/template/{save|update}` (admins only, by the route table).
 */
import { featureHandler, json, route } from '#lib/http.ts';
import { forbidden, notFound } from '#lib/errors.ts';
import type { AuthContext } from '#lib/auth.ts';
import {
  HomeQuerySchema,
  PanelQuerySchema,
  SaveTemplateSchema,
  TEMPLATE_MESSAGES,
  TemplateRefSchema,
  TemplateStatusBody,
} from '#shared/contract/templates.ts';
import { normalizeTag, relatedTags } from '#shared/template-tags.ts';
import { currentTeam, type DesignRecord } from '#functions/designs/store.ts';
import { createFromTemplate } from '#functions/designs/create.ts';
import { listDesigns, templateList } from '#functions/designs/lists.ts';
import { teamBundles } from '#functions/bundles/store.ts';
import { bundleViews } from '#functions/bundles/views.ts';
import {
  matchesSearch,
  panelPage,
  readTemplates,
  tagsOf,
  templateCard,
  templatesTagged,
} from './catalogue.ts';
import { changeTemplateStatus, deleteTemplate, saveTemplate } from './admin.ts';

const isAdmin = (auth: AuthContext) => auth.user?.isAdmin === true;

/**
 * The templates of the panel's Global tab: the enabled ones; admins also see the disabled ones
 * (their settings menu activates them, docs/templates.md "Screens"), last updated first.
 */
async function globalTemplates(admin: boolean): Promise<DesignRecord[]> {
  const [enabled, disabled] = await Promise.all([
    readTemplates('active'),
    admin ? readTemplates('archived') : Promise.resolve([]),
  ]);
  return [...enabled, ...disabled].sort((a, b) =>
    (b.updatedAt ?? '').localeCompare(a.updatedAt ?? ''),
  );
}

export const handler = featureHandler('templates', {
  /** The templates, across teams, with the dashboard's sorts and pages (docs/templates.md "Screens"). */
  'GET /getHomeTemplates': route({
    query: HomeQuerySchema,
    handle: async ({ auth, query }) => {
      if (query.status === 'archived' && !isAdmin(auth)) throw forbidden();
      const templates = query.tag.trim()
        ? await templatesTagged(query.status, query.tag, query.sortby, query.page)
        : await listDesigns(templateList(query.status), query);
      return json(200, { templates });
    },
  }),

  /**
   * The editor's Templates panel (docs/templates.md "Calls": "GET /getTemplates with page,
   * imageTag, type -> templates.data, templates.last_page, templatesBundles.data"). `related_tags`
   * are the other tags of the templates the search finds (the tag editor's related tags).
   */
  'GET /getTemplates': route({
    query: PanelQuerySchema,
    handle: async ({ auth, query }) => {
      const search = normalizeTag(query.imageTag);
      if (query.type === 'templateBundles') {
        const bundles = await bundleViews(await teamBundles(currentTeam(auth)), Infinity, true);
        const data = bundles
          .map((b) => ({
            ...b,
            bundle_images: b.bundle_images.filter((t) => matchesSearch(t, search)),
          }))
          .filter((b) => b.bundle_images.length > 0);
        return json(200, {
          success: true,
          templates: panelPage([], query.page),
          templatesBundles: { data },
          related_tags: [],
        });
      }
      const all = await globalTemplates(isAdmin(auth));
      const found = all.filter((r) => matchesSearch({ tags: tagsOf(r), title: r.title }, search));
      return json(200, {
        success: true,
        templates: panelPage(found.map(templateCard), query.page),
        templatesBundles: { data: [] },
        related_tags: relatedTags(all.map(tagsOf), search),
      });
    },
  }),

  /**
   * A new design of the caller's team from an enabled template (docs/templates.md "Screens"):
   * `{ success, newPicSnippetId }`, then the SPA opens its edit page. A POST with the CSRF check
   * (the spec's GET would let a cross-site link create designs; docs/security.md).
   */
  'POST /pic-snippet/{id}/createFromTemplate': route({
    handle: async ({ auth, params }) => {
      const record = await createFromTemplate(currentTeam(auth), params.id!);
      return json(201, { success: true, newPicSnippetId: record.designId });
    },
  }),

  /** docs/templates.md "Calls": body picSnippetId (or templateId) and status 0/1 -> success. */
  'POST /admin/template/changeStatus': route({
    body: TemplateStatusBody,
    handle: async ({ body }) => {
      const template = await changeTemplateStatus(body.designId, body.status);
      return json(200, {
        success: true,
        message: body.status ? TEMPLATE_MESSAGES.enabled : TEMPLATE_MESSAGES.disabled,
        template,
      });
    },
  }),

  /** docs/templates.md "Calls": body picSnippetId or templateId -> success, message. */
  'DELETE /admin/template/delete': route({
    body: TemplateRefSchema,
    handle: async ({ body }) => {
      await deleteTemplate(body.designId);
      return json(200, { success: true, message: TEMPLATE_MESSAGES.deleted });
    },
  }),

  /**
   * docs/templates.md "Calls": save tags (action save or update; data picSnippetId, imageTags,
   * templateBundles -> success, message).
   */
  'POST /admin/template/{action}': route({
    body: SaveTemplateSchema,
    handle: async ({ auth, params, body }) => {
      const action = params.action;
      if (action !== 'save' && action !== 'update') throw notFound(`No template action ${action}.`);
      return json(200, await saveTemplate(auth.user!, action, body));
    },
  }),
});
