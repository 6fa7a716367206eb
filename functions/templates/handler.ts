/**
 * The `templates` feature's Lambda. Its routes are listed in the route table (shared/routes.ts);
 * routes without an implementation answer 501 naming the feature (issue: foundation §6).
 *
 * Built so far (issue 5, the designs side of templates): the dashboard's template list
 * (`GET /getHomeTemplates`) and creating a design from a template. The admin calls and
 * `GET /getTemplates` come with the libraries issue.
 */
import { featureHandler, json, route } from '#lib/http.ts';
import { currentTeam } from '#functions/designs/store.ts';
import { createFromTemplate } from '#functions/designs/create.ts';
import { ListQuerySchema, listDesigns, templateList } from '#functions/designs/lists.ts';

export const handler = featureHandler('templates', {
  /** The enabled templates, across teams, with the dashboard's sorts and pages (spec 000 §2). */
  'GET /getHomeTemplates': route({
    query: ListQuerySchema,
    handle: async ({ query }) =>
      json(200, { templates: await listDesigns(templateList('active'), query) }),
  }),

  /**
   * A new design of the caller's team from an enabled template (spec 000 §2): the SPA's call
   * gets `{ success, newPicSnippetId }`; a browser opening the link is sent on to the new
   * design's edit page.
   */
  'GET /pic-snippet/{id}/createFromTemplate': route({
    handle: async ({ auth, params, event }) => {
      const record = await createFromTemplate(currentTeam(auth), params.id!);
      const navigation =
        !event.headers?.['x-requested-with'] && (event.headers?.accept ?? '').includes('text/html');
      if (navigation) {
        return {
          statusCode: 302,
          headers: {
            location: `/pic-snippet/${encodeURIComponent(record.designId)}/edit`,
            'cache-control': 'no-store',
          },
          body: '',
        };
      }
      return json(201, { success: true, newPicSnippetId: record.designId });
    },
  }),
});
