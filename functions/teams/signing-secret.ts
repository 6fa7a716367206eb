/**
 * The team's render signing secret in its settings (docs/developer-api.md "Signed render URLs"):
 * whether one exists, and making or rotating it. The owner or an admin of the team `{id}`
 * (route access `manager`); making one is session-only (an API token cannot mint secrets).
 * The secret is answered once, by the call that makes it.
 */
import { RotateSecretBody } from '#shared/contract/signing.ts';
import { unauthenticated } from '#lib/errors.ts';
import { json, route, type RouteDefinition } from '#lib/http.ts';
import { rotateSigningSecret, signingSecretStatus } from '#domain/signing-secrets.ts';

/** The routes, keyed as the route table names them. */
export const signingSecretRoutes: Record<string, RouteDefinition> = {
  /** 200 `{ exists, created_at, previous_valid_until }`. */
  'GET /settings/companies/{id}/signing-secret': route({
    handle: async ({ params }) => json(200, await signingSecretStatus(params.id!)),
  }),
  /**
   * 201 `{ secret, exists, created_at, previous_valid_until }`; 409 when another rotation
   * happened meanwhile; 422 for an overlap outside 0–720 hours.
   */
  'POST /settings/companies/{id}/signing-secret': route({
    body: RotateSecretBody,
    handle: async ({ auth, params, body }) => {
      if (!auth.user) throw unauthenticated();
      return json(
        201,
        await rotateSigningSecret(params.id!, auth.user.userId, body.overlap_hours * 3600),
      );
    },
  }),
};
