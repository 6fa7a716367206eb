/**
 * The `bundles` feature's Lambda (docs/templates.md "Screens" Template Bundles, docs/templates.md
 * "Model", docs/templates.md "Model": "Bundle", docs/templates.md "Calls"; docs/decisions.md
 * docs/templates.md "Model"; docs/templates.md):
 * - `POST /get-template-bundle`: the dashboard's bundle list (admins: every bundle; users:
 *   their team's active bundles, the private bundle view), or one bundle with all its
 *   templates (`bundleId`, the bundle edit page);
 * - `POST /get-all-template-bundle/`: the save modal's bundle select options, marked for a
 *   template `id`;
 * - the admin calls under `/admin/templateBundle/` (admins only, by the route table).
 */
import { featureHandler, json, route } from '#lib/http.ts';
import { notFound, validationFailed } from '#lib/errors.ts';
import type { AuthContext } from '#lib/auth.ts';
import { NOTICES, notifyTeams } from '#domain/notify.ts';
import { currentTeam } from '#functions/designs/store.ts';
import { PAGE_SIZE } from '#functions/designs/lists.ts';
import {
  AssignTeamsBody,
  BundleListBody,
  BundleListQuery,
  BundleOptionsBody,
  BundleRefSchema,
  BundleStatusBody,
  RemoveTemplateBody,
} from '#shared/contract/bundles.ts';
import { bundleOption, NOT_IN_A_BUNDLE, resetRemovedTemplate } from '#functions/templates/admin.ts';
import {
  BUNDLE_MESSAGES,
  deleteBundle,
  listBundles,
  loadBundle,
  removeTemplateFromBundles,
  teamBundles,
  teamsByIds,
  updateBundle,
} from './store.ts';
import { BUNDLE_PREVIEW_IMAGES, bundleViews } from './views.ts';

const isAdmin = (auth: AuthContext) => auth.user?.isAdmin === true;

/** Messages of the bundle calls (texts are ours; the spec shows the server's message). */
const MESSAGES = {
  unknownTeam: 'The selected team does not exist.',
  teamsSaved: 'The teams were saved.',
  enabled: 'The template bundle was activated.',
  disabled: 'The template bundle was deactivated.',
} as const;

/**
 * The bundles the caller may see: every bundle for an admin; a user's team's active bundles.
 */
const visibleBundles = (auth: AuthContext) =>
  isAdmin(auth) ? listBundles() : teamBundles(currentTeam(auth));

export const handler = featureHandler('bundles', {
  /**
   * docs/templates.md "Calls" `POST /get-template-bundle?{query}`: `{ success, bundles: { data,
   * current_page, last_page } }`, 15 to a page, bundles showing up to 6 templates
   * (docs/templates.md "Model"); with `bundleId`, `{ success, bundle }` with every template (the
   * bundle edit page).
   */
  'POST /get-template-bundle': route({
    query: BundleListQuery,
    body: BundleListBody,
    handle: async ({ auth, query, body }) => {
      const bundleId = body.bundleId ?? query.bundleId;
      const admin = isAdmin(auth);
      const visible = await visibleBundles(auth);
      if (bundleId) {
        const bundle = visible.find((b) => b.bundleId === bundleId);
        if (!bundle) throw notFound(BUNDLE_MESSAGES.notFound);
        const [view] = await bundleViews([bundle], Infinity, !admin);
        return json(200, { success: true, bundle: view });
      }
      const page = query.page;
      const slice = visible.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
      return json(200, {
        success: true,
        bundles: {
          data: await bundleViews(slice, BUNDLE_PREVIEW_IMAGES, !admin),
          current_page: page,
          last_page: Math.max(1, Math.ceil(visible.length / PAGE_SIZE)),
          per_page: PAGE_SIZE,
          total: visible.length,
        },
      });
    },
  }),

  /**
   * docs/templates.md "Calls" `POST /get-all-template-bundle/` with id (template id or null) ->
   * success, bundles: the bundle select options, marked `selected` when they hold the template.
   */
  'POST /get-all-template-bundle': route({
    body: BundleOptionsBody,
    handle: async ({ auth, body }) => {
      const bundles = await visibleBundles(auth);
      return json(200, {
        success: true,
        bundles: bundles.map((b) => bundleOption(b, body.id ?? null)),
      });
    },
  }),

  /** docs/templates.md "Calls": body bundleId -> teams (`{ id, name }`, A to Z). */
  'POST /admin/templateBundle/getBundleTeams': route({
    body: BundleRefSchema,
    handle: async ({ body }) => {
      const bundle = await loadBundle(body.bundleId);
      return json(200, { success: true, teams: await teamsByIds(bundle.teamIds ?? []) });
    },
  }),

  /** docs/templates.md "Calls": body templateBundleId, status (0/1) -> success (docs/templates.md "Model": "toggled"). */
  'POST /admin/templateBundle/changeBundleStatus': route({
    body: BundleStatusBody,
    handle: async ({ body }) => {
      const active = body.status;
      const bundle = await updateBundle(body.bundleId, (b) =>
        (b.status === 'active') === active
          ? null
          : active
            ? { status: 'active', archivedAt: null }
            : { status: 'inactive', archivedAt: new Date().toISOString() },
      );
      const [view] = await bundleViews([bundle], BUNDLE_PREVIEW_IMAGES, false);
      return json(200, {
        success: true,
        message: active ? MESSAGES.enabled : MESSAGES.disabled,
        bundle: view,
      });
    },
  }),

  /**
   * docs/templates.md "Calls": body teamIds, bundleId -> success. The bundle's teams become exactly
   * `teamIds` (the add-teams modal saves its checked teams with Save Teams); every id must be
   * a team, else nothing is saved.
   */
  'POST /admin/templateBundle/assignTeams': route({
    body: AssignTeamsBody,
    handle: async ({ body }) => {
      const before = new Set((await loadBundle(body.bundleId)).teamIds ?? []);
      const wanted = [...new Set(body.teamIds)];
      const teams = await teamsByIds(wanted);
      if (teams.length !== wanted.length) {
        throw validationFailed({ teamIds: [MESSAGES.unknownTeam] });
      }
      const bundle = await updateBundle(body.bundleId, () => ({ teamIds: wanted }));
      // The members of each newly assigned team hear of it (docs/notifications.md).
      const added = wanted.filter((id) => !before.has(id));
      await notifyTeams(added, 'all', (team) => NOTICES.bundleAssigned(team, bundle.name));
      return json(200, {
        success: true,
        message: MESSAGES.teamsSaved,
        teams,
        teamsCount: (bundle.teamIds ?? []).length,
      });
    },
  }),

  /** docs/templates.md "Calls" `DELETE /admin/templateBundle/deleteBundle` (data body): its templates stay. */
  'DELETE /admin/templateBundle/deleteBundle': route({
    body: BundleRefSchema,
    handle: async ({ body }) => {
      await deleteBundle(body.bundleId);
      return json(200, { success: true, message: BUNDLE_MESSAGES.deleted });
    },
  }),

  /**
   * docs/templates.md "Calls" `DELETE /admin/templateBundle/deletePicSnippet`, body picSnippetId
   * and currentPicsnippetId, plus `bundleId` for one bundle (the bundle edit page); without it the
   * template leaves every bundle. The template itself stays a template, except when it is the
   * design open in the caller's editor (`currentPicsnippetId` equal to `picSnippetId`): then, as
   * docs/templates.md "Model" says of the save modal, its tags are emptied and it leaves every
   * bundle, a plain design again (functions/templates/admin.ts `resetRemovedTemplate`); the
   * answer's `current`, `version` and `imageTags` let the editor follow.
   */
  'DELETE /admin/templateBundle/deletePicSnippet': route({
    body: RemoveTemplateBody,
    handle: async ({ body }) => {
      if (body.bundleId) {
        const bundle = await loadBundle(body.bundleId);
        if (!(bundle.templateIds ?? []).includes(body.picSnippetId)) {
          throw notFound('This template is not in the bundle.');
        }
      }
      if (body.currentPicsnippetId === body.picSnippetId) {
        const reset = await resetRemovedTemplate(body.picSnippetId);
        return json(200, {
          success: true,
          message: BUNDLE_MESSAGES.removed,
          current: true,
          bundles: reset.bundleIds,
          version: reset.record.version,
          imageTags: [],
        });
      }
      const from = await removeTemplateFromBundles(
        body.picSnippetId,
        body.bundleId ? [body.bundleId] : undefined,
      );
      if (from.length === 0) throw notFound(NOT_IN_A_BUNDLE);
      return json(200, {
        success: true,
        message: BUNDLE_MESSAGES.removed,
        current: false,
        bundles: from.map((b) => b.bundleId),
      });
    },
  }),
});
