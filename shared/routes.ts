/**
 * The route table: every HTTP route of the product, as plain data.
 *
 * Paths and methods are the product's API (docs/adr/0019-design-api-shapes.md "Design API shapes",
 * docs/adr/0044-the-api-contract.md "The API contract" and docs/adr/0002-path-parameter-names.md
 * "Path parameter names"; the spec's "{teams}" is `companies`). The CDK stack builds API Gateway
 * routes and one Lambda per feature from this list, the local gateway dispatches from it, and each
 * feature's handler routes its own entries. There is no second list. This module imports nothing
 * heavy, so CDK synth, the local gateway and the SPA can all read it.
 *
 * Path parameters keep one name per position (API Gateway refuses siblings with different
 * variable names), so the spec's `{textSnippetId}`/`{snippetUuid}` are `{id}` here.
 */

/**
 * The Lambda a route runs in; one `functions/<feature>/handler.ts` each
 * (docs/adr/0044-the-api-contract.md "The API contract").
 */
export const FEATURES = [
  'system',
  'designs',
  'text-snippets',
  'templates',
  'bundles',
  'images',
  'stickers',
  'fonts',
  'auth',
  'teams',
  'billing',
  'stripe-webhook',
  'merge-tags',
  'kiosk',
  'notifications',
  'support',
  'render',
  'send-lists',
  'webhooks',
] as const;
export type Feature = (typeof FEATURES)[number];

/**
 * Who may call a route.
 * - `public`: anyone;
 * - `user`: a signed-in user (session cookie or API token); team ownership of every id is
 *   still checked by the handler;
 * - `owner`: the owner of the team named by `{id}`;
 * - `manager`: the owner or an admin (team role `admin`) of the team named by `{id}`: they
 *   manage members and invitations (docs/adr/0023-team-roles.md "Team roles");
 * - `admin`: a platform admin (docs/adr/0023-team-roles.md "Team roles");
 * - `stripe`: Stripe's webhook, authenticated by its signature.
 */
export type Access = 'public' | 'user' | 'owner' | 'manager' | 'admin' | 'stripe';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Route {
  method: Method;
  /** API Gateway style: `/api/pic-snippet/{id}`; `{proxy+}` is greedy. */
  path: string;
  feature: Feature;
  access: Access;
  /** Where the route comes from: the specification's section, or a docs/ file for routes beyond it. */
  source: string;
  /**
   * A GET that browsers open directly (a link, a download, a redirect target), so a navigation
   * to it goes to the API rather than to the SPA shell.
   */
  navigable?: boolean;
  /** The body is read raw (the Stripe signature is over the exact bytes). */
  rawBody?: boolean;
  /**
   * Only a signed-in session may call it, never a Bearer API token (403): what could take over
   * the account or reach further than the token's owner meant (the e-mail, password, two-factor
   * authentication, the tokens themselves, deleting a team, the kiosk). docs/security.md
   * "Sessions and tokens"; test/integration/api-tokens.test.ts.
   */
  sessionOnly?: boolean;
  /**
   * The API token ability this route needs instead of `read`/`write` (docs/developer-api.md
   * "Signed render URLs": `sign`); a signed-in session needs none.
   */
  ability?: 'sign';
}

const r = (
  method: Method,
  path: string,
  feature: Feature,
  access: Access,
  source: string,
  extra: Pick<Route, 'navigable' | 'rawBody' | 'sessionOnly' | 'ability'> = {},
): Route => ({ method, path, feature, access, source, ...extra });

/** A session-only route (`Route.sessionOnly`). */
const session = { sessionOnly: true } as const;

/** A kiosk route: platform admins, in a session only. */
const kiosk = (
  method: Method,
  path: string,
  source: string,
  extra: Pick<Route, 'navigable'> = {},
): Route => r(method, path, 'kiosk', 'admin', source, { ...extra, ...session });

const S0 = 'spec 000 §7';
const S1 = 'spec 001 §7';
const HOOKS = 'docs/developer-api.md "Webhooks"';
const SIGNED = 'docs/developer-api.md "Signed render URLs"';
const CAMPAIGNS = 'docs/analytics.md "Campaigns"';
const SEND_LISTS = 'docs/send-lists.md';
const DATA = 'docs/data-sources.md';

/** Every route, spec order. */
export const ROUTES: readonly Route[] = [
  // Platform
  r('GET', '/api/health', 'system', 'public', 'docs/operations.md "Health"'),
  // The developer API's reference (docs/developer-api.md): the OpenAPI document and its viewer.
  r('GET', '/api/openapi.json', 'system', 'public', 'docs/developer-api.md "The reference"'),
  r('GET', '/api/docs', 'system', 'public', 'docs/developer-api.md "The reference"', {
    navigable: true,
  }),
  r('GET', '/r/{proxy+}', 'render', 'public', `${S1} Export: the rendered image URL`),
  r('GET', '/l/{proxy+}', 'render', 'public', 'docs/rules.md "Links"', { navigable: true }),

  // docs/adr/0019-design-api-shapes.md "Design API shapes" Dashboard lists
  r('GET', '/getActive', 'designs', 'user', `${S0} Dashboard lists`),
  r('GET', '/getArchived', 'designs', 'user', `${S0} Dashboard lists`),
  r('GET', '/getHomeTemplates', 'templates', 'user', `${S0} Dashboard lists`),
  r('POST', '/get-template-bundle', 'bundles', 'user', `${S0} Dashboard lists`),
  r('POST', '/get-all-template-bundle', 'bundles', 'user', `${S0} Dashboard lists`),
  r('GET', '/getTemplates', 'templates', 'user', `${S0} Dashboard lists`),

  // docs/adr/0019-design-api-shapes.md "Design API shapes" Design actions
  r(
    'POST',
    '/api/pic-snippet',
    'designs',
    'user',
    `${S0} Design actions (create, docs/adr/0019-design-api-shapes.md "Design API shapes")`,
  ),
  r('GET', '/api/pic-snippet/{id}', 'designs', 'user', `${S0} Design actions`),
  r('PUT', '/api/pic-snippet/{id}', 'designs', 'user', `${S0} Design actions`),
  r('PUT', '/api/pic-snippet/{id}/archive', 'designs', 'user', `${S0} Design actions`),
  r('PUT', '/api/pic-snippet/{id}/unarchive', 'designs', 'user', `${S0} Design actions`),
  r('PUT', '/pic-snippet/{id}/copy', 'designs', 'user', `${S0} Design actions`),
  // A POST with the CSRF check, not the spec's GET: it creates a design (docs/security.md
  // "State changes are not GETs"); the SPA then opens the new design's edit page.
  r('POST', '/pic-snippet/{id}/createFromTemplate', 'templates', 'user', `${S0} Design actions`),
  r('PUT', '/api/pic-snippet/{id}/replace', 'designs', 'user', `${S0} Design actions`),
  r('PUT', '/api/pic-snippet/{id}/saveImageId', 'designs', 'user', `${S0} Design actions`),
  r('PUT', '/api/pic-snippet/{id}/pso', 'designs', 'user', `${S0} Design actions`),
  r('PUT', '/api/pic-snippet/{id}/effects', 'designs', 'user', `${S0} Design actions`),
  r('PUT', '/api/pic-snippet/{id}/options', 'designs', 'user', `${S0} Design actions`),
  r('PUT', '/pic-snippet/{id}/qrCodeColor', 'designs', 'user', `${S0} Design actions`),
  r('PUT', '/api/pic-snippet/{id}/qrCode', 'designs', 'user', `${S0} Design actions`),
  r('POST', '/api/pic-snippet/{id}/gravatarMail', 'designs', 'user', `${S0} Design actions`),
  r(
    'POST',
    '/api/pic-snippet/{id}/saveGeneratedDynamicSticker',
    'designs',
    'user',
    `${S0} Design actions`,
  ),
  r('POST', '/api/pic-snippet/{id}/saveScreenShotType', 'designs', 'user', `${S0} Design actions`),
  r('POST', '/saveCroppedImage', 'designs', 'user', `${S0} Design actions (cropped image)`),
  // docs/adr/0044-the-api-contract.md "The API contract" Export: the export screen saves these
  // design fields
  r('PUT', '/api/pic-snippet/{id}/provider', 'designs', 'user', `${S1} Export and merge tags`),
  r('PUT', '/api/pic-snippet/{id}/choices', 'designs', 'user', `${S1} Export and merge tags`),
  r('PUT', '/api/pic-snippet/{id}/link', 'designs', 'user', `${S1} Export and merge tags`),
  // Generate keeps the design as it is and names it in the URL (docs/adr/0044-the-api-contract.md
  // "The API contract": "optional cache id segment"; docs/export.md "Cache id")
  r('POST', '/api/pic-snippet/{id}/cache-id', 'designs', 'user', `${S1} Export: the cache id`),
  // Campaign analytics counted at the CDN (docs/analytics.md "The report").
  r('GET', '/api/pic-snippet/{id}/analytics', 'designs', 'user', 'docs/analytics.md "The report"'),
  // Campaigns: designs grouped by a campaign name, and their analytics added up.
  r('PUT', '/api/pic-snippet/{id}/campaign', 'designs', 'user', CAMPAIGNS),
  r('GET', '/api/campaigns', 'designs', 'user', CAMPAIGNS),
  r('GET', '/api/campaigns/report', 'designs', 'user', CAMPAIGNS),
  // Polls (docs/polls.md): a recipient's vote, from the SPA's vote page; public, CSRF-checked.
  r('GET', '/api/polls/ballot', 'designs', 'public', 'docs/polls.md "Voting"'),
  r('POST', '/api/polls/vote', 'designs', 'public', 'docs/polls.md "Voting"'),
  r('GET', '/api/pic-snippet/{id}/poll/votes', 'designs', 'user', 'docs/polls.md "For the team"'),
  r(
    'POST',
    '/api/pic-snippet/{id}/web-crop-preview',
    'designs',
    'user',
    'docs/web-crops.md "In the editor"',
  ),
  // Signed render URLs (docs/developer-api.md "Signed render URLs"): the design's requirement,
  // and signing a URL (an API token needs the `sign` ability).
  r('PUT', '/api/pic-snippet/{id}/signing', 'designs', 'user', SIGNED),
  r('POST', '/api/pic-snippet/{id}/sign', 'designs', 'user', SIGNED, { ability: 'sign' }),
  // Send lists (docs/send-lists.md): pre-render a design for every row of an uploaded list.
  r('GET', '/api/pic-snippet/{id}/send-lists', 'send-lists', 'user', SEND_LISTS),
  r('POST', '/api/pic-snippet/{id}/send-lists', 'send-lists', 'user', SEND_LISTS),
  r('GET', '/api/pic-snippet/{id}/send-lists/{jobId}', 'send-lists', 'user', SEND_LISTS),
  r('POST', '/api/pic-snippet/{id}/send-lists/{jobId}/start', 'send-lists', 'user', SEND_LISTS),
  r('POST', '/api/pic-snippet/{id}/send-lists/{jobId}/cancel', 'send-lists', 'user', SEND_LISTS),
  r('PUT', '/api/pic-snippet/{id}/send-lists/{jobId}/starts-at', 'send-lists', 'user', SEND_LISTS),
  r('GET', '/api/pic-snippet/{id}/send-lists/{jobId}/download', 'send-lists', 'user', SEND_LISTS, {
    navigable: true,
  }),

  // docs/adr/0019-design-api-shapes.md "Design API shapes" Text snippet parameters
  r('POST', '/api/text-snippet/{id}/parameter', 'text-snippets', 'user', `${S0} Parameters`),
  r(
    'PUT',
    '/api/text-snippet/{id}/parameter/{parameterId}',
    'text-snippets',
    'user',
    `${S0} Parameters`,
  ),
  r(
    'DELETE',
    '/api/text-snippet/{id}/parameter/{parameterId}',
    'text-snippets',
    'user',
    `${S0} Parameters`,
  ),
  r(
    'POST',
    '/api/text-snippet/{id}/parameter/{parameterId}/checkFormating',
    'text-snippets',
    'user',
    `${S0} Parameters`,
  ),
  r(
    'POST',
    '/api/text-snippet/{id}/parameter/{parameterId}/getParameterData',
    'text-snippets',
    'user',
    `${S0} Parameters`,
  ),
  r('DELETE', '/api/text-snippet/delete-parameters', 'text-snippets', 'user', `${S0} Parameters`),

  // docs/adr/0019-design-api-shapes.md "Design API shapes" Templates and bundles (admin)
  r('POST', '/admin/template/changeStatus', 'templates', 'admin', `${S0} Templates and bundles`),
  r('DELETE', '/admin/template/delete', 'templates', 'admin', `${S0} Templates and bundles`),
  r('POST', '/admin/template/{action}', 'templates', 'admin', `${S0} Templates and bundles`),
  r(
    'POST',
    '/admin/templateBundle/getBundleTeams',
    'bundles',
    'admin',
    `${S0} Templates and bundles`,
  ),
  r(
    'POST',
    '/admin/templateBundle/changeBundleStatus',
    'bundles',
    'admin',
    `${S0} Templates and bundles`,
  ),
  r('POST', '/admin/templateBundle/assignTeams', 'bundles', 'admin', `${S0} Templates and bundles`),
  r(
    'DELETE',
    '/admin/templateBundle/deleteBundle',
    'bundles',
    'admin',
    `${S0} Templates and bundles`,
  ),
  r(
    'DELETE',
    '/admin/templateBundle/deletePicSnippet',
    'bundles',
    'admin',
    `${S0} Templates and bundles`,
  ),

  // docs/adr/0019-design-api-shapes.md "Design API shapes" Images, stickers, fonts
  r('GET', '/getGlobalImages', 'images', 'user', `${S0} Images`),
  r('GET', '/getImages', 'images', 'user', `${S0} Images`),
  r('GET', '/api/search-images/{query}', 'images', 'user', `${S0} Images (stock-photo search)`),
  r(
    'POST',
    '/api/search-images/import',
    'images',
    'user',
    `${S0} Images (a chosen stock photo copied into the team's uploads; docs/decisions.md)`,
  ),
  r('DELETE', '/deleteImage', 'images', 'user', `${S0} Images`),
  r('GET', '/image/{id}', 'images', 'user', `${S0} Images`),
  r('GET', '/image/{id}/tags', 'images', 'user', `${S0} Images`),
  r(
    'POST',
    '/image',
    'images',
    'user',
    `${S0} Images (upload, or sticker upload with type=asIcon)`,
  ),
  r('POST', '/getStickers', 'stickers', 'user', `${S0} Stickers`),
  r('POST', '/getFavorites', 'stickers', 'user', `${S0} Stickers`),
  r('POST', '/getUploads', 'stickers', 'user', `${S0} Stickers`),
  r('POST', '/getPacksStickers', 'stickers', 'user', `${S0} Stickers`),
  r('POST', '/addToFavorite', 'stickers', 'user', `${S0} Stickers`),
  r('POST', '/deleteUploadSticker', 'stickers', 'user', `${S0} Stickers`),
  r('GET', '/getCustomFonts', 'fonts', 'user', `${S0} Fonts`),
  r('POST', '/storeFont', 'fonts', 'user', `${S0} Fonts`),
  r(
    'GET',
    '/api/fonts',
    'fonts',
    'user',
    `${S0} Fonts (the picker's server groups, docs/decisions.md)`,
  ),

  // docs/adr/0044-the-api-contract.md "The API contract" Registration and lookups
  r('GET', '/geocode/country', 'auth', 'public', `${S1} Registration and lookups`),
  r('GET', '/coupon/{code}', 'billing', 'public', `${S1} Registration and lookups`),
  r('GET', '/invitations/{code}', 'teams', 'public', `${S1} Registration and lookups`),
  r('GET', '/spark/plans', 'billing', 'public', `${S1} Registration and lookups`),
  r('POST', '/if-mail-exists', 'auth', 'public', `${S1} Registration and lookups`),
  r('POST', '/register', 'auth', 'public', `${S1} Registration and lookups`),
  // The partner campaign's registration (docs/accounts.md "Screens": "a special registration path …
  // applies a fixed coupon"): the route, never a field of the form, asks for the campaign's coupon.
  r('POST', '/register/partner', 'auth', 'public', 'spec 001 §2 (partner-campaign registration)'),
  r(
    'POST',
    '/login',
    'auth',
    'public',
    'docs/adr/0002-path-parameter-names.md "Path parameter names" (sign-in, JSON)',
  ),
  // A POST with the CSRF check, not the spec's GET: a cross-site link or image must not sign
  // anyone out (docs/security.md "State changes are not GETs").
  r('POST', '/logout', 'auth', 'public', `${S1} Registration and lookups`),
  r('POST', '/password/email', 'auth', 'public', 'docs/security.md "Account existence"'),
  r('POST', '/password/reset', 'auth', 'public', 'docs/security.md "Sessions and tokens"'),
  // E-mail ownership (docs/security.md "Invitations and e-mail ownership"): the e-mailed link's
  // token confirms an address; a signed-in user asks for a new link.
  r('POST', '/email/verify', 'auth', 'public', 'security hardening (e-mail verification link)'),
  r(
    'POST',
    '/email/verification-notification',
    'auth',
    'user',
    'security hardening (e-mail verification link, sent again)',
    session,
  ),
  r('POST', '/tax-rate', 'billing', 'public', `${S1} Registration and lookups`),
  r('GET', '/coupon/user/{id}', 'billing', 'user', `${S1} Registration and lookups`),
  // Session-only: the spec's path is ambiguous beside the team routes in the API reference, and a
  // token reads the same discount from `GET /settings/subscription` (docs/developer-api.md
  // "The reference").
  r(
    'GET',
    '/settings/companies/coupon/{id}',
    'billing',
    'owner',
    `${S1} Registration and lookups`,
    session,
  ),
  r('GET', '/stripe/token', 'billing', 'user', `${S1} Registration and lookups`),
  r('GET', '/stripe/key', 'billing', 'public', 'docs/billing.md "Flows" (publishable key)'),

  // docs/adr/0044-the-api-contract.md "The API contract" Profile, teams, members
  r('GET', '/user/current', 'auth', 'user', `${S1} Profile, teams, members`),
  r('POST', '/settings/photo', 'auth', 'user', `${S1} Profile, teams, members`),
  r('PUT', '/settings/contact', 'auth', 'user', `${S1} Profile, teams, members`, session),
  r('PUT', '/settings/onboarding', 'auth', 'user', 'spec 001 §2 Onboarding'),
  r('GET', '/settings/companies', 'teams', 'user', `${S1} Profile, teams, members`),
  r('POST', '/settings/companies', 'teams', 'user', `${S1} Profile, teams, members`),
  r('GET', '/settings/companies/current', 'teams', 'user', `${S1} Profile, teams, members`),
  r('GET', '/settings/companies/roles', 'teams', 'user', `${S1} Profile, teams, members`),
  // The spec's path for the SPA; tokens read the same answer at `/settings/companies/{id}`, so
  // the API reference has no path ambiguous beside the team routes (docs/developer-api.md
  // "The reference").
  r(
    'GET',
    '/settings/companies/json/{id}',
    'teams',
    'user',
    `${S1} Profile, teams, members`,
    session,
  ),
  r('GET', '/settings/companies/{id}', 'teams', 'user', 'docs/developer-api.md "The reference"'),
  r(
    'PUT',
    '/settings/companies/{id}/switch',
    'teams',
    'user',
    'docs/adr/0002-path-parameter-names.md "Path parameter names" (switch team)',
  ),
  r(
    'DELETE',
    '/settings/companies/{id}',
    'teams',
    'owner',
    `${S1} Profile, teams, members`,
    session,
  ),
  r('POST', '/settings/companies/{id}/photo', 'teams', 'owner', `${S1} Profile, teams, members`),
  // The team's watermark image (docs/adr/0057-watermark.md "Watermark").
  r(
    'POST',
    '/settings/companies/{id}/watermark',
    'teams',
    'owner',
    'docs/adr/0057-watermark.md "Watermark"',
  ),
  r(
    'DELETE',
    '/settings/companies/{id}/watermark',
    'teams',
    'owner',
    'docs/adr/0057-watermark.md "Watermark"',
  ),
  r('PUT', '/settings/companies/{id}/name', 'teams', 'owner', `${S1} Profile, teams, members`),
  // The team's webhook endpoints and their deliveries (docs/developer-api.md "Webhooks").
  r('GET', '/settings/companies/{id}/webhooks', 'webhooks', 'manager', HOOKS),
  r('POST', '/settings/companies/{id}/webhooks', 'webhooks', 'manager', HOOKS),
  r('PUT', '/settings/companies/{id}/webhooks/{webhookId}', 'webhooks', 'manager', HOOKS),
  r('DELETE', '/settings/companies/{id}/webhooks/{webhookId}', 'webhooks', 'manager', HOOKS),
  r('POST', '/settings/companies/{id}/webhooks/{webhookId}/test', 'webhooks', 'manager', HOOKS),
  r(
    'GET',
    '/settings/companies/{id}/webhooks/{webhookId}/deliveries',
    'webhooks',
    'manager',
    HOOKS,
  ),
  // The team's data sources (docs/data-sources.md), served by the merge-tags function
  // (docs/adr/0063-data-sources.md "Data sources"): data stores (uploaded tables) and web APIs.
  r('GET', '/settings/companies/{id}/data-stores', 'merge-tags', 'manager', DATA),
  r('POST', '/settings/companies/{id}/data-stores', 'merge-tags', 'manager', DATA),
  r('GET', '/settings/companies/{id}/data-stores/{storeId}', 'merge-tags', 'manager', DATA),
  r('POST', '/settings/companies/{id}/data-stores/{storeId}/upload', 'merge-tags', 'manager', DATA),
  r('GET', '/settings/companies/{id}/data-stores/{storeId}/record', 'merge-tags', 'manager', DATA),
  r('DELETE', '/settings/companies/{id}/data-stores/{storeId}', 'merge-tags', 'manager', DATA),
  r('GET', '/settings/companies/{id}/web-apis', 'merge-tags', 'manager', DATA),
  r('POST', '/settings/companies/{id}/web-apis', 'merge-tags', 'manager', DATA),
  r('PUT', '/settings/companies/{id}/web-apis/{apiId}', 'merge-tags', 'manager', DATA),
  r('DELETE', '/settings/companies/{id}/web-apis/{apiId}', 'merge-tags', 'manager', DATA),
  r('POST', '/settings/companies/{id}/web-apis/{apiId}/test', 'merge-tags', 'manager', DATA),
  // The team's render signing secret: whether one exists; make or rotate it (shown once).
  r('GET', '/settings/companies/{id}/signing-secret', 'teams', 'manager', SIGNED),
  r('POST', '/settings/companies/{id}/signing-secret', 'teams', 'manager', SIGNED, session),
  r(
    'GET',
    '/settings/companies/{id}/invitations',
    'teams',
    'manager',
    `${S1} Profile, teams, members`,
  ),
  r(
    'POST',
    '/settings/companies/{id}/invitations',
    'teams',
    'manager',
    `${S1} Profile, teams, members`,
  ),
  r(
    'PUT',
    '/settings/companies/{id}/members/{userId}',
    'teams',
    'manager',
    `${S1} Profile, teams, members`,
  ),
  r(
    'DELETE',
    '/settings/companies/{id}/members/{userId}',
    'teams',
    'user',
    `${S1} Profile, teams, members (leave, or the owner or an admin removes)`,
  ),
  r('GET', '/settings/invitations/pending', 'teams', 'user', `${S1} Profile, teams, members`),
  r('POST', '/settings/invitations/{id}/accept', 'teams', 'user', `${S1} Profile, teams, members`),
  r('POST', '/settings/invitations/{id}/reject', 'teams', 'user', `${S1} Profile, teams, members`),
  r('DELETE', '/settings/invitations/{id}', 'teams', 'user', `${S1} Profile, teams, members`),

  // docs/adr/0044-the-api-contract.md "The API contract" Security and tokens
  r('PUT', '/settings/password', 'auth', 'user', `${S1} Security and tokens`, session),
  r('POST', '/settings/two-factor-auth', 'auth', 'user', `${S1} Security and tokens`, session),
  r('DELETE', '/settings/two-factor-auth', 'auth', 'user', `${S1} Security and tokens`, session),
  r('GET', '/settings/api/tokens', 'auth', 'user', `${S1} Security and tokens`, session),
  r('GET', '/settings/api/token/abilities', 'auth', 'user', `${S1} Security and tokens`, session),
  r('POST', '/settings/api/token', 'auth', 'user', `${S1} Security and tokens`, session),
  r('PUT', '/settings/api/token/{id}', 'auth', 'user', `${S1} Security and tokens`, session),
  r('DELETE', '/settings/api/token/{id}', 'auth', 'user', `${S1} Security and tokens`, session),
  r('PUT', '/spark/token', 'auth', 'user', `${S1} Security and tokens`, session),

  // docs/adr/0044-the-api-contract.md "The API contract" Subscription and payment
  r(
    'GET',
    '/settings/subscription',
    'billing',
    'user',
    'docs/adr/0032-billing-server.md "Billing server"',
  ),
  r(
    'GET',
    '/settings/companies/{id}/subscription',
    'billing',
    'owner',
    'docs/adr/0032-billing-server.md "Billing server" (subscription view)',
  ),
  r('GET', '/stripe/payment/{id}', 'billing', 'user', `${S1} §2 Payment-confirmation page`),
  r('POST', '/settings/subscription', 'billing', 'user', `${S1} Subscription and payment`),
  r('PUT', '/settings/subscription', 'billing', 'user', `${S1} Subscription and payment`),
  r('DELETE', '/settings/subscription', 'billing', 'user', `${S1} Subscription and payment`),
  r(
    'POST',
    '/settings/companies/{id}/subscription',
    'billing',
    'owner',
    `${S1} Subscription and payment`,
  ),
  r(
    'PUT',
    '/settings/companies/{id}/subscription',
    'billing',
    'owner',
    `${S1} Subscription and payment`,
  ),
  r(
    'DELETE',
    '/settings/companies/{id}/subscription',
    'billing',
    'owner',
    `${S1} Subscription and payment`,
  ),
  r(
    'PUT',
    '/settings/companies/{id}/metaData',
    'billing',
    'owner',
    `${S1} Subscription and payment`,
  ),
  r('PUT', '/settings/payment-method', 'billing', 'user', `${S1} Subscription and payment`),
  r(
    'PUT',
    '/settings/companies/{id}/payment-method',
    'billing',
    'owner',
    `${S1} Subscription and payment`,
  ),
  r('PUT', '/settings/payment-method/vat-id', 'billing', 'user', `${S1} Subscription and payment`),
  r(
    'PUT',
    '/settings/companies/{id}/payment-method/vat-id',
    'billing',
    'owner',
    `${S1} Subscription and payment`,
  ),
  r('POST', '/settings/payment-method/coupon', 'billing', 'user', `${S1} Subscription and payment`),
  r(
    'POST',
    '/settings/companies/{id}/payment-method/coupon',
    'billing',
    'owner',
    `${S1} Subscription and payment`,
  ),
  r(
    'PUT',
    '/settings/companies/{id}/update-payment-method',
    'billing',
    'owner',
    `${S1} Subscription and payment`,
  ),
  r('GET', '/settings/invoices', 'billing', 'user', `${S1} Subscription and payment`),
  r(
    'GET',
    '/settings/companies/{id}/invoices',
    'billing',
    'owner',
    `${S1} Subscription and payment`,
  ),
  r('GET', '/settings/invoice/{id}', 'billing', 'user', `${S1} Subscription and payment`, {
    navigable: true,
  }),
  r(
    'PUT',
    '/settings/extra-billing-information',
    'billing',
    'user',
    `${S1} Subscription and payment`,
  ),
  r('POST', '/stripe/webhook', 'stripe-webhook', 'stripe', 'docs/billing.md "Webhook"', {
    rawBody: true,
  }),

  // docs/adr/0044-the-api-contract.md "The API contract" Export and merge tags
  r('GET', '/api/merge-tag/providers', 'merge-tags', 'user', `${S1} Export and merge tags`),
  r('GET', '/api/merge-tag/storeFront', 'merge-tags', 'user', `${S1} Export and merge tags`),
  r('POST', '/api/merge-tag', 'merge-tags', 'user', `${S1} Export and merge tags`),
  r('GET', '/js/{file}', 'merge-tags', 'public', `${S1} Export: /js/{product}.js`),
  // Keap's authorisation window (docs/billing.md "Flows": "opens the authorization window";
  // docs/export.md). Session only: connecting the team's Keap account is a person's consent in a
  // browser.
  r('GET', '/api/merge-tag/infusionsoft/authorize', 'merge-tags', 'user', `${S1} Export`, {
    navigable: true,
    ...session,
  }),
  r('GET', '/api/merge-tag/infusionsoft/callback', 'merge-tags', 'user', `${S1} Export`, {
    navigable: true,
    ...session,
  }),

  // docs/adr/0044-the-api-contract.md "The API contract" Notifications and support
  r('GET', '/notifications/recent', 'notifications', 'user', `${S1} Notifications and support`),
  r('PUT', '/notifications/read', 'notifications', 'user', `${S1} Notifications and support`),
  r(
    'PUT',
    '/user/last-read-announcements-at',
    'notifications',
    'user',
    `${S1} Notifications and support`,
  ),
  r('POST', '/support/email', 'support', 'user', `${S1} Notifications and support`),

  // docs/adr/0044-the-api-contract.md "The API contract" Kiosk
  kiosk('GET', '/spark/kiosk/announcements', `${S1} Kiosk`),
  kiosk('POST', '/spark/kiosk/announcements', `${S1} Kiosk`),
  kiosk('PUT', '/spark/kiosk/announcements/{id}', `${S1} Kiosk`),
  kiosk('DELETE', '/spark/kiosk/announcements/{id}', `${S1} Kiosk`),
  kiosk('GET', '/spark/kiosk/performance-indicators', `${S1} Kiosk`),
  kiosk('GET', '/spark/kiosk/performance-indicators/revenue', `${S1} Kiosk`),
  kiosk('GET', '/spark/kiosk/performance-indicators/plans', `${S1} Kiosk`),
  kiosk('GET', '/spark/kiosk/performance-indicators/trialing', `${S1} Kiosk`),
  kiosk('POST', '/spark/kiosk/users/search', `${S1} Kiosk`),
  kiosk('GET', '/spark/kiosk/users/{id}/profile', `${S1} Kiosk`),
  // A POST with the CSRF check, not the spec's navigation: it changes whose session this is.
  kiosk('POST', '/spark/kiosk/users/impersonate/{id}', `${S1} Kiosk`),
  // Called from the impersonated user's session (no longer an admin's): it checks the session
  // was started by an admin, and gives the admin their own session back (docs/kiosk.md).
  r('POST', '/spark/kiosk/users/stop-impersonating', 'kiosk', 'user', `${S1} Kiosk`, session),
  kiosk('POST', '/spark/kiosk/users/discount/{id}', `${S1} Kiosk`),
  kiosk('POST', '/teams/search', `${S1} Kiosk`),
  kiosk('GET', '/custom/teams/{id}', `${S1} Kiosk`),
  kiosk('POST', '/custom/teams/{id}/additional_permissions', `${S1} Kiosk`),
  kiosk('GET', '/spark/cancelReasons', `${S1} Kiosk`),
  kiosk('POST', '/packs/search', `${S1} Kiosk (packs)`),
  kiosk('GET', '/packs/getPacks', `${S1} Kiosk (packs)`),
  kiosk('POST', '/packs/download', `${S1} Kiosk (packs)`),
  kiosk('PATCH', '/packs/restorePack', `${S1} Kiosk (packs)`),
  kiosk('DELETE', '/packs/removePack', `${S1} Kiosk (packs)`),
  // The global image library's admin (docs/accounts.md "Screens", docs/adr/0023-team-roles.md "Team
  // roles": "manage … the global image library"; the spec names no paths: docs/kiosk.md "The global
  // image library").
  kiosk('GET', '/spark/kiosk/library', `${S1} Kiosk (global image library, docs/kiosk.md)`),
  kiosk('POST', '/spark/kiosk/library', `${S1} Kiosk (global image library, docs/kiosk.md)`),
  kiosk(
    'PUT',
    '/spark/kiosk/library/{id}/tags',
    `${S1} Kiosk (global image library, docs/kiosk.md)`,
  ),
  kiosk('DELETE', '/spark/kiosk/library/{id}', `${S1} Kiosk (global image library, docs/kiosk.md)`),
];

/** `METHOD /path`, the key API Gateway and middy's http-router use for a route. */
export const routeKey = (route: Pick<Route, 'method' | 'path'>): string =>
  `${route.method} ${route.path}`;

/** The routes one feature's Lambda serves. */
export const routesOf = (feature: Feature): Route[] => ROUTES.filter((x) => x.feature === feature);

interface CompiledRoute {
  route: Route;
  regex: RegExp;
  names: string[];
  /** Literal segments count; API Gateway prefers the most specific match. */
  specificity: number;
}

/**
 * Turns a route path into a regex: `{name}` matches one segment, `{name+}` the rest.
 * Exported so the CloudFront router function is generated from the same rule.
 */
export function pathPattern(path: string): { source: string; names: string[] } {
  const names: string[] = [];
  const source = path
    .split('/')
    .map((segment) => {
      const greedy = /^\{(\w+)\+\}$/.exec(segment);
      if (greedy) {
        names.push(greedy[1]!);
        return '(.+)';
      }
      const param = /^\{(\w+)\}$/.exec(segment);
      if (param) {
        names.push(param[1]!);
        return '([^/]+)';
      }
      return segment.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return { source: `^${source}/?$`, names };
}

const compiled: CompiledRoute[] = ROUTES.map((route) => {
  const { source, names } = pathPattern(route.path);
  const segments = route.path.split('/');
  return {
    route,
    regex: new RegExp(source),
    names,
    specificity: segments.filter((s) => !s.startsWith('{')).length * 100 + segments.length,
  };
}).sort((a, b) => b.specificity - a.specificity);

export interface RouteMatch {
  route: Route;
  /** Decoded path parameters by name. */
  params: Record<string, string>;
}

/**
 * Finds the route for a method and path, as API Gateway would: literal segments win over
 * parameters. Returns `undefined` when no route has that path, and `{ route: undefined }`-free
 * `methodNotAllowed` when the path exists with other methods.
 */
export function matchRoute(
  method: string,
  path: string,
): RouteMatch | { methodNotAllowed: Method[] } | undefined {
  const upper = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
  const allowed: Method[] = [];
  for (const c of compiled) {
    const m = c.regex.exec(path);
    if (!m) continue;
    if (c.route.method !== upper) {
      allowed.push(c.route.method);
      continue;
    }
    const params: Record<string, string> = {};
    c.names.forEach((name, i) => {
      const raw = m[i + 1] ?? '';
      try {
        params[name] = decodeURIComponent(raw);
      } catch {
        params[name] = raw;
      }
    });
    return { route: c.route, params };
  }
  return allowed.length > 0 ? { methodNotAllowed: [...new Set(allowed)] } : undefined;
}

/**
 * Decides whether a request goes to the API or to the SPA shell, where the two share a path
 * (`/settings/companies/{teamId}` is a page, `/settings/companies/current` is a call). Used by
 * the local gateway; the CloudFront router function is generated from the same rule
 * (docs/decisions.md, "API and SPA on one origin").
 *
 * A request goes to the API when its method is not GET/HEAD, or it matches a route (of any
 * method: a GET to a POST-only call answers 405) and is not a browser navigation (no
 * `X-Requested-With`/`Authorization`, `Accept` with text/html), or the route is `navigable`.
 */
export function isApiRequest(req: {
  method: string;
  path: string;
  accept?: string | undefined;
  xRequestedWith?: string | undefined;
  authorization?: string | undefined;
}): boolean {
  const match = matchRoute(req.method, req.path);
  if (match === undefined) return false;
  const read = req.method === 'GET' || req.method === 'HEAD';
  const navigation =
    !req.xRequestedWith && !req.authorization && (req.accept ?? '').includes('text/html');
  // A call with the wrong method reaches the API (405); a navigation to the path is a page.
  if ('methodNotAllowed' in match) return !read || !navigation;
  if (!read) return true;
  if (match.route.navigable || match.route.path.startsWith('/api/')) return true;
  if (match.route.feature === 'render') return true;
  return !navigation;
}
