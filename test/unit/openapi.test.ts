/**
 * The developer API's reference (functions/system/openapi.ts; docs/developer-api.md): the
 * OpenAPI document lists every route an API token may call (the token rules of
 * functions/lib/auth.ts `authenticate`, restated here on purpose so a change to either side is
 * seen), nothing session-only or admin-only, and every schema in it is a JSON Schema object whose
 * references resolve. The kept viewer copy matches the installed package.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  buildOpenApiDocument,
  openApiDocument,
  openApiPath,
  tokenCallableRoutes,
} from '#functions/system/openapi.ts';
import { CONTRACT, type RouteContract } from '#shared/contract/index.ts';
import { OpenApiDocumentSchema } from '#shared/contract/system.ts';
import { ROUTES, type Route } from '#shared/routes.ts';
import { VIEWER_DIR, viewerFiles } from '#infra/tools/copy-api-viewer.ts';

const doc = buildOpenApiDocument();
type Operation = Record<string, unknown> & { responses: Record<string, unknown> };
const operationOf = (route: Route): Operation | undefined =>
  (doc.paths?.[openApiPath(route.path)] as Record<string, Operation> | undefined)?.[
    route.method.toLowerCase()
  ];

/** JSON Schema 2020-12's type names (OpenAPI 3.1's Schema Object is JSON Schema). */
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

/** Problems of one schema (recursively), or none; `$ref`s must point into the document. */
function schemaProblems(schema: unknown, at: string, problems: string[] = []): string[] {
  if (typeof schema === 'boolean') return problems;
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) {
    problems.push(`${at}: not a schema object`);
    return problems;
  }
  const s = schema as Record<string, unknown>;
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? s.type : [s.type];
    for (const t of types) if (!TYPES.has(t as string)) problems.push(`${at}: type ${String(t)}`);
  }
  if (
    s.required !== undefined &&
    !(Array.isArray(s.required) && s.required.every((r) => typeof r === 'string'))
  )
    problems.push(`${at}: required is not a list of names`);
  if (typeof s.$ref === 'string') {
    const target = s.$ref.startsWith('#/')
      ? s.$ref
          .slice(2)
          .split('/')
          .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], doc)
      : undefined;
    if (target === undefined) problems.push(`${at}: $ref ${s.$ref} does not resolve`);
  }
  for (const key of ['properties', 'patternProperties', '$defs', 'definitions'] as const) {
    const map = s[key];
    if (map === undefined) continue;
    if (typeof map !== 'object' || map === null) problems.push(`${at}.${key}: not an object`);
    else for (const [k, v] of Object.entries(map)) schemaProblems(v, `${at}.${key}.${k}`, problems);
  }
  for (const key of ['items', 'additionalProperties', 'not', 'propertyNames', 'contains'] as const)
    if (s[key] !== undefined) schemaProblems(s[key], `${at}.${key}`, problems);
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const) {
    const list = s[key];
    if (list === undefined) continue;
    if (!Array.isArray(list)) problems.push(`${at}.${key}: not a list`);
    else list.forEach((v, i) => schemaProblems(v, `${at}.${key}[${i}]`, problems));
  }
  return problems;
}

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 with a bearer scheme, and its own contract holds', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components?.securitySchemes?.bearerAuth).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    expect(OpenApiDocumentSchema.safeParse(JSON.parse(JSON.stringify(doc))).success).toBe(true);
    expect(openApiDocument()).toBe(openApiDocument());
  });

  // The token rules, restated from functions/lib/auth.ts `authenticate`.
  const callable = ROUTES.filter(
    (r) =>
      !r.sessionOnly && (r.access === 'user' || r.access === 'owner' || r.access === 'manager'),
  );

  it('covers the designs, templates, images and the render URL', () => {
    expect(callable.length).toBeGreaterThan(50);
    for (const key of ['POST /api/pic-snippet', 'GET /api/pic-snippet/{id}', 'GET /r/{proxy+}']) {
      const [method, path] = key.split(' ') as [Route['method'], string];
      expect(operationOf({ method, path } as Route), key).toBeDefined();
    }
  });

  it.each(callable.map((r) => [`${r.method} ${r.path}`, r] as const))(
    'documents %s, which a token may call',
    (_key, route) => {
      expect(operationOf(route)).toBeDefined();
    },
  );

  it('leaves out session-only, admin and Stripe routes', () => {
    const listed = new Set(tokenCallableRoutes());
    for (const route of ROUTES) {
      if (route.sessionOnly || route.access === 'admin' || route.access === 'stripe') {
        expect(listed.has(route), `${route.method} ${route.path}`).toBe(false);
        expect(operationOf(route), `${route.method} ${route.path}`).toBeUndefined();
      }
    }
  });

  it('gives every operation a unique id, a success answer and the error answers', () => {
    const ids = new Set<string>();
    for (const route of tokenCallableRoutes()) {
      const op = operationOf(route)!;
      expect(ids.has(op.operationId as string)).toBe(false);
      ids.add(op.operationId as string);
      const contract = (CONTRACT as Record<string, RouteContract>)[`${route.method} ${route.path}`];
      expect(op.responses[String(contract?.status ?? 200)]).toBeDefined();
      for (const code of [401, 403, 404, 422, ...(contract?.errors ?? [])])
        expect(op.responses[String(code)], `${route.method} ${route.path} ${code}`).toBeDefined();
    }
  });

  it('has only valid JSON Schema objects in every operation', () => {
    const problems: string[] = [];
    for (const route of tokenCallableRoutes()) {
      const op = operationOf(route)!;
      const at = `${route.method} ${route.path}`;
      for (const p of (op.parameters ?? []) as { name: string; schema: unknown }[])
        schemaProblems(p.schema, `${at} parameter ${p.name}`, problems);
      const body = (op.requestBody as { content?: Record<string, { schema: unknown }> } | undefined)
        ?.content;
      for (const [type, media] of Object.entries(body ?? {}))
        schemaProblems(media.schema, `${at} body ${type}`, problems);
      for (const [code, answer] of Object.entries(op.responses)) {
        const content = (answer as { content?: Record<string, { schema: unknown }> }).content;
        for (const [type, media] of Object.entries(content ?? {}))
          schemaProblems(media.schema, `${at} ${code} ${type}`, problems);
      }
    }
    for (const [name, schema] of Object.entries(doc.components?.schemas ?? {}))
      schemaProblems(schema, `components.schemas.${name}`, problems);
    expect(problems).toEqual([]);
  });

  it('has examples that parse with their own schema', () => {
    const schemas = Object.values(CONTRACT as Record<string, RouteContract>).flatMap((c) =>
      [c.params, c.query, c.body, c.answer].filter((s): s is z.ZodType => s !== undefined),
    );
    for (const schema of schemas) {
      const meta = schema.meta() as { example?: unknown; examples?: unknown[] } | undefined;
      const examples = [
        ...(meta?.example !== undefined ? [meta.example] : []),
        ...(Array.isArray(meta?.examples) ? meta.examples : []),
      ];
      for (const example of examples) expect(schema.safeParse(example).success).toBe(true);
    }
  });
});

describe('the kept viewer', () => {
  it('is the installed swagger-ui-dist bundle and the start script (the SPA build copies them: npm run build:web)', () => {
    for (const [name, content] of Object.entries(viewerFiles()))
      expect(readFileSync(join(VIEWER_DIR, name), 'utf8') === content, name).toBe(true);
  });
});
