/**
 * The contract of the `system` route (shared/routes.ts; docs/adr/0044-the-api-contract.md "The API
 * contract"): `GET /api/health`, the health report of functions/system/handler.ts
 * (docs/operations.md "Health"). It answers the same report with 200 when everything is ready and
 * 503 when not, so its 503 is not an `ErrorAnswerSchema` but the report (`errorAnswers`). Also the
 * developer API's reference (docs/developer-api.md): `GET /api/openapi.json`, the OpenAPI 3.1
 * document built from the contract by functions/system/openapi.ts, and `GET /api/docs`, the page
 * that shows it.
 */
import { z } from 'zod';
import { defineContract, NoJsonAnswer } from './core.ts';

/** One backing service as the health check saw it: reachable, the probe's round trip (ms). */
export const ServiceHealthSchema = z.object({
  ok: z.boolean(),
  /** Round trip, ms. */
  ms: z.number(),
  /** The error's name (`timeout`, `ResourceNotFoundException`), never its message. */
  error: z.string().optional(),
});
export type ServiceHealth = z.infer<typeof ServiceHealthSchema>;

/**
 * `GET /api/health`: `ok` when DynamoDB and S3 answer and every part this process starts is
 * ready; `waiting` says in words what is not (`renderer: launching Chromium`).
 */
export const HealthSchema = z.object({
  ok: z.boolean(),
  services: z.object({ dynamodb: ServiceHealthSchema, s3: ServiceHealthSchema }),
  /** The parts this process starts (the local stack's renderer), ready or what they wait for. */
  parts: z.record(z.string(), z.object({ ready: z.boolean(), waiting: z.string().optional() })),
  waiting: z.array(z.string()).optional(),
});
export type Health = z.infer<typeof HealthSchema>;

/**
 * `GET /api/openapi.json`: an OpenAPI 3.1 document (functions/system/openapi.ts); only its frame
 * is checked here, the generator's test checks the rest (test/unit/openapi.test.ts).
 */
export const OpenApiDocumentSchema = z.looseObject({
  openapi: z.string().regex(/^3\.1\.\d+$/),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.looseObject({})),
});

/** The `system` routes' contract. */
export const SYSTEM_CONTRACT = {
  'GET /api/health': defineContract({
    answer: HealthSchema,
    errors: [503],
    errorAnswers: { 503: HealthSchema },
  }),
  'GET /api/openapi.json': defineContract({ answer: OpenApiDocumentSchema }),
  /** An HTML page (the viewer), not JSON. */
  'GET /api/docs': defineContract({ answer: NoJsonAnswer }),
} as const;
