/**
 * The developer API's reference (docs/developer-api.md): an OpenAPI 3.1 document built from the
 * API contract (shared/contract: `CONTRACT`) and the route table (shared/routes.ts: `ROUTES`) by
 * zod-openapi, never written by hand, so it cannot drift from what the handlers parse and answer.
 *
 * Which routes it lists: those a customer's API token may call ({@link isTokenCallable}), after
 * the token rules of functions/lib/auth.ts `authenticate` (docs/security.md "Sessions and
 * tokens"; test/integration/api-tokens.test.ts): a Bearer token stands for its user on every
 * route that needs a signed-in user (`user`, `owner`, `manager`), never on a `sessionOnly` one,
 * with the `read` ability for a GET and `write` otherwise. Platform-admin routes are left out (a
 * customer's token never passes them), and so are public routes, which need no token, except the
 * render feature's: the rendered image URL (`GET /r/{proxy+}`), which is what API callers embed,
 * and the rule link beside it (`GET /l/{proxy+}`, docs/rules.md "Links").
 *
 * Each operation: its path and query parameters, its JSON body, its success answer with the
 * contract's status (no JSON content for a `NoJsonAnswer` route: a redirect or a file), and its
 * error answers: the statuses of every route plus the contract's `errors`, each
 * `ErrorAnswerSchema` unless `errorAnswers` names another shape (shared/contract/core.ts).
 * test/unit/openapi.test.ts checks the list and the schemas.
 */
import { createDocument, type ZodOpenApiOperationObject } from 'zod-openapi';
import type {
  ZodOpenApiPathsObject,
  ZodOpenApiResponseObject,
  ZodOpenApiResponsesObject,
} from 'zod-openapi';
import { z } from 'zod';
import {
  contractOf,
  ErrorAnswerSchema,
  NoJsonAnswer,
  pathPlaceholders,
  type RouteContract,
} from '#shared/contract/index.ts';
import { ROUTES, routeKey, type Feature, type Route } from '#shared/routes.ts';
import {
  BillingAddressViewSchema,
  CapabilitiesSchema,
  CardSchema,
  DiscountSchema,
  SubscriptionViewSchema,
} from '#shared/contract/billing.ts';
import { DesignCardSchema } from '#shared/contract/designs.ts';
import { ImageSchema } from '#shared/contract/images.ts';
import { SendListJobSchema } from '#shared/contract/send-lists.ts';
import { IconItemSchema, PackItemSchema } from '#shared/contract/stickers.ts';
import { TeamMemberSchema, TeamSchema } from '#shared/contract/teams.ts';
import { ParameterAnswerSchema } from '#shared/contract/text-snippets.ts';

/** The document's `info.version`: bump when the documented API changes incompatibly. */
export const API_VERSION = '1.0.0';

/**
 * The error statuses every route may answer (shared/contract/core.ts `RouteContract.errors`):
 * 401 (no or an unknown token), 403 (a missing ability, a session-only route, a role), 404 (an
 * id of another team), 422 (a refused input), 429 (a limit), 503 (a service not ready).
 */
const COMMON_ERRORS = [401, 403, 404, 422, 429, 503] as const;

/** Words for the statuses the document names. */
const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  204: 'No content',
  302: 'Redirect',
  400: 'Bad request',
  401: 'No token, or an unknown or expired one',
  402: 'Payment required',
  403: 'Not allowed: the token lacks the ability, or the route needs a signed-in session',
  404: 'Not found (or an id of another team)',
  409: 'Conflict: a stale version or a duplicate',
  410: 'Gone',
  413: 'Too large',
  422: 'The input was refused; `errors` names each field',
  429: 'Too many requests',
  500: 'Server error',
  502: 'An upstream service failed',
  503: 'A service is not ready',
};

/**
 * Whether a customer's API token may call the route (see the module comment).
 * @example isTokenCallable({ access: 'user', sessionOnly: undefined, … }) === true
 */
export function isTokenCallable(route: Route): boolean {
  if (route.sessionOnly) return false;
  if (route.access === 'user' || route.access === 'owner' || route.access === 'manager')
    return true;
  return route.access === 'public' && route.feature === 'render';
}

/** The routes the document lists, in the table's order. */
export const tokenCallableRoutes = (): Route[] => ROUTES.filter(isTokenCallable);

/** `/r/{proxy+}` → `/r/{proxy}`: OpenAPI has no greedy placeholder. */
export const openApiPath = (path: string): string => path.replace(/\{(\w+)\+\}/g, '{$1}');

/** `GET /api/pic-snippet/{id}` → `get_api_pic_snippet_id`: unique, stable operation ids. */
export const operationId = (route: Route): string =>
  [route.method.toLowerCase(), ...route.path.split(/[^A-Za-z0-9]+/).filter(Boolean)].join('_');

/** A query or params schema as zod-openapi takes it: an object, or undefined. */
function asObject(schema: z.ZodType | undefined): z.ZodObject | undefined {
  return schema instanceof z.ZodObject ? schema : undefined;
}

/**
 * The rate-limit fields on every answer to a token (functions/lib/limits/token-requests.ts,
 * docs/developer-api.md "Rate limits"); a 429 adds `Retry-After`.
 */
const RATE_LIMIT_HEADERS = z.object({
  'RateLimit-Policy': z.string().meta({
    description: 'The token\'s allowance, e.g. `"token";q=60;w=60` (60 requests a 60 s window).',
  }),
  RateLimit: z.string().meta({
    description: 'What is left, e.g. `"token";r=59;t=42` (59 more requests, window ends in 42 s).',
  }),
});
const RETRY_AFTER_HEADERS = RATE_LIMIT_HEADERS.extend({
  'Retry-After': z.string().meta({ description: 'Seconds until the allowance is whole again.' }),
});

/** The success and error answers of one route. */
function responses(contract: RouteContract | undefined): ZodOpenApiResponsesObject {
  const status = contract?.status ?? 200;
  const out: Record<string, ZodOpenApiResponseObject> = {};
  const json = contract && contract.answer !== NoJsonAnswer && status !== 204;
  out[String(status)] = {
    description: STATUS_TEXT[status] ?? 'Success',
    headers: RATE_LIMIT_HEADERS,
    ...(json ? { content: { 'application/json': { schema: contract.answer } } } : {}),
  };
  const statuses = [...new Set([...COMMON_ERRORS, ...(contract?.errors ?? [])])].sort(
    (a, b) => a - b,
  );
  for (const code of statuses) {
    out[String(code)] = {
      description: STATUS_TEXT[code] ?? 'Error',
      // A 401 (no or an unknown token) was not counted, so it has no rate-limit fields.
      ...(code === 401 ? {} : { headers: code === 429 ? RETRY_AFTER_HEADERS : RATE_LIMIT_HEADERS }),
      content: {
        'application/json': { schema: contract?.errorAnswers?.[code] ?? ErrorAnswerSchema },
      },
    };
  }
  return out;
}

/** One route's operation. */
function operation(route: Route): ZodOpenApiOperationObject {
  const contract = contractOf(routeKey(route));
  const names = pathPlaceholders(route.path);
  const params =
    asObject(contract?.params) ??
    (names.length > 0
      ? z.object(Object.fromEntries(names.map((n) => [n, z.string()])))
      : undefined);
  const query = asObject(contract?.query);
  const needs = route.ability ?? (route.method === 'GET' ? 'read' : 'write');
  return {
    operationId: operationId(route),
    tags: [route.feature],
    summary: `${route.method} ${route.path}`,
    description: `Needs a token with the \`${needs}\` ability. Source: ${route.source}.`,
    ...(params || query
      ? { requestParams: { ...(params ? { path: params } : {}), ...(query ? { query } : {}) } }
      : {}),
    ...(contract?.body && route.method !== 'GET'
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: contract.body } },
          },
        }
      : {}),
    responses: responses(contract),
    // The render URL is public: its signature or the design id is the key.
    ...(route.access === 'public' ? { security: [] } : {}),
  };
}

/**
 * The shapes the document names (`#/components/schemas/…`): those many answers share, so a client
 * generated from the document gets one named type for each (zod-openapi refers to a registered
 * schema wherever the same schema object appears). test/unit/openapi-lint.test.ts generates one.
 */
export const NAMED_SCHEMAS = {
  ErrorAnswer: ErrorAnswerSchema,
  Subscription: SubscriptionViewSchema,
  Capabilities: CapabilitiesSchema,
  Card: CardSchema,
  BillingAddress: BillingAddressViewSchema,
  Discount: DiscountSchema,
  DesignCard: DesignCardSchema,
  Parameter: ParameterAnswerSchema,
  SendListJob: SendListJobSchema,
  Image: ImageSchema,
  StickerPackItem: PackItemSchema,
  StickerIcon: IconItemSchema,
  Team: TeamSchema,
  TeamMember: TeamMemberSchema,
};

/** Each group of operations (a route's feature) with what it holds, in the route table's order. */
export const TAG_DESCRIPTIONS: Partial<Record<Feature, string>> = {
  render: 'The public render URL of a design and its rule links: what an e-mail or page embeds.',
  designs: 'Designs (PicSnippets): create, read, save, copy, archive, and their export settings.',
  'text-snippets': "The parameters of a design's text snippets: fallbacks and text transforms.",
  templates: 'Templates to start a design from.',
  bundles: 'Template bundles.',
  images: "The image library and the team's uploads.",
  stickers: 'Sticker packs, icons, uploaded stickers and dynamic stickers.',
  fonts: "The font catalogue and the team's uploaded fonts.",
  auth: 'The signed-in user.',
  teams: 'Teams, members, roles and invitations.',
  billing: 'Plans, subscriptions, payment methods, coupons and invoices.',
  'merge-tags':
    "E-mail platforms' merge tags, and the data stores and web APIs that fill parameters.",
  notifications: 'The bell: notifications and announcements.',
  support: 'Support requests.',
  'send-lists': "Send lists: a campaign's recipients rendered ahead of the send.",
  webhooks: "The team's webhook endpoints and their deliveries.",
};

/** The document's type, as zod-openapi builds it. */
export type OpenApiDocument = ReturnType<typeof createDocument>;

/**
 * Builds the document (no cache; {@link openApiDocument} keeps one per process).
 * @param serverUrl the `servers[0].url`; `/` (the same origin) unless given.
 */
export function buildOpenApiDocument(serverUrl = '/'): OpenApiDocument {
  const paths: ZodOpenApiPathsObject = {};
  for (const route of tokenCallableRoutes()) {
    const path = openApiPath(route.path);
    const method = route.method.toLowerCase() as Lowercase<Route['method']>;
    paths[path] = { ...paths[path], [method]: operation(route) };
  }
  const document = createDocument(
    {
      openapi: '3.1.0',
      info: {
        title: 'PicSnippets API',
        version: API_VERSION,
        description:
          'The routes an API token may call. Create a token in Settings → API tokens and send it ' +
          'as `Authorization: Bearer <token>`: the `read` ability for GETs, `write` for the rest.',
        // The API is the product's own, open to its customers' tokens; no open-source licence.
        license: { name: 'Proprietary', identifier: 'LicenseRef-PicSnippets-Proprietary' },
      },
      servers: [{ url: serverUrl }],
      tags: [...new Set(tokenCallableRoutes().map((route) => route.feature))].map((name) => ({
        name,
        ...(TAG_DESCRIPTIONS[name] ? { description: TAG_DESCRIPTIONS[name] } : {}),
      })),
      security: [{ bearerAuth: [] }],
      components: {
        schemas: NAMED_SCHEMAS,
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description: 'An API token (`pst_…`) from Settings → API tokens.',
          },
        },
      },
      paths,
    },
    {
      // Schemas that JSON cannot say (a transform's output, a custom check) render as `{}`
      // rather than failing the whole document.
      allowEmptySchema: { custom: true, transform: true, pipe: true, any: true, unknown: true },
    },
  );
  return preferAnswerNames(document);
}

/**
 * zod-openapi names a registered schema's answer form `{name}Output` when it differs from the
 * request form (an object's answer form refuses unknown fields). Most named shapes are answers
 * only, so their request form is left unused: this drops each unused request form and gives
 * its answer form the plain name, rewriting the references. Returns the document changed.
 */
export function preferAnswerNames(document: OpenApiDocument): OpenApiDocument {
  const schemas = document.components?.schemas as Record<string, unknown> | undefined;
  if (!schemas) return document;
  const before = JSON.stringify(document);
  const renamed: string[] = [];
  for (const name of Object.keys(NAMED_SCHEMAS)) {
    const output = `${name}Output`;
    if (!(output in schemas) || before.includes(`"#/components/schemas/${name}"`)) continue;
    schemas[name] = schemas[output];
    delete schemas[output];
    renamed.push(name);
  }
  let text = JSON.stringify(document);
  for (const name of renamed)
    text = text.replaceAll(
      `"#/components/schemas/${name}Output"`,
      `"#/components/schemas/${name}"`,
    );
  return JSON.parse(text) as OpenApiDocument;
}

let cached: OpenApiDocument | undefined;

/** The document, built once per process (the contract cannot change while it runs). */
export function openApiDocument(): OpenApiDocument {
  cached ??= buildOpenApiDocument();
  return cached;
}
