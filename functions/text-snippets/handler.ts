/**
 * The `text-snippets` feature: a text snippet's parameters (merge fields),
 * docs/adr/0013-text-snippet-parameters.md "Text snippet parameters": "Text snippet parameters";
 * rules in shared/parameter-rules.ts (docs/adr/0013-text-snippet-parameters.md "Text snippet
 * parameters"), document operations in shared/parameters.ts. `{id}` is the text snippet's id; the
 * design comes from `pic_snippet_id` (docs/adr/0013-text-snippet-parameters.md "Text snippet
 * parameters"). Every answer carries the design's `version`; a write given a stale `version`
 * answers 409 and changes nothing.
 */
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { validationFailed } from '#lib/errors.ts';
import { featureHandler, json, route, type RouteContext } from '#lib/http.ts';
import {
  AddParameterBody,
  CheckFormatingBody,
  DeleteParametersBody,
  TargetBody,
  TargetQuery,
  UpdateParameterBody,
} from '#shared/contract/text-snippets.ts';
import type { DesignDocument } from '#shared/design.ts';
import {
  addParameter,
  changeParameterTextTransform,
  removeParameter,
  removeParameters,
  updateParameter,
} from '#shared/parameters.ts';
import { resolveParameter } from '#shared/scene/resolve.ts';
import {
  PARAMETER_CALL_MESSAGES,
  readParameter,
  writeParameters,
  type DesignTarget,
} from './parameters.ts';

/** What every route's context carries: the target fields in the body and the query. */
type TargetContext = RouteContext<
  { pic_snippet_id?: string; version?: number },
  z.infer<typeof TargetQuery>
>;

/** The design a call acts on; 422 on `pic_snippet_id` when neither body nor query names it. */
function targetOf(ctx: TargetContext): DesignTarget {
  const designId = ctx.body.pic_snippet_id ?? ctx.query.pic_snippet_id;
  if (!designId)
    throw validationFailed({ pic_snippet_id: [PARAMETER_CALL_MESSAGES.designRequired] });
  return {
    teamId: ctx.auth.user!.currentTeamId,
    designId,
    version: ctx.body.version ?? ctx.query.version,
  };
}

/**
 * Runs a parameter operation as one versioned write and answers its result without the
 * document: `{ success, parameter(s), previous?, change(s), version }` (version: the design's
 * new version).
 */
async function answerWrite<R extends { document: DesignDocument }>(
  ctx: TargetContext,
  status: 200 | 201,
  operation: (document: DesignDocument) => R,
) {
  const { result, version } = await writeParameters(targetOf(ctx), operation);
  const { document: _document, ...answer } = result;
  return json(status, { success: true, ...answer, version });
}

export const handler = featureHandler('text-snippets', {
  /** Adds a parameter with a default name, suffixed if taken (docs/adr/0013-text-snippet-parameters.md "Text snippet parameters"); 201. */
  'POST /api/text-snippet/{id}/parameter': route({
    body: AddParameterBody,
    query: TargetQuery,
    handle: async (ctx) => {
      const textSnippetId = ctx.params.id!;
      return answerWrite(ctx, 201, (doc) => addParameter(doc, textSnippetId, ctx.body, randomUUID));
    },
  }),

  /** Renames (placeholders follow), sets the fallback or the text transform (docs/adr/0013-text-snippet-parameters.md "Text snippet parameters"). */
  'PUT /api/text-snippet/{id}/parameter/{parameterId}': route({
    body: UpdateParameterBody,
    query: TargetQuery,
    handle: async (ctx) => {
      const { id, parameterId } = ctx.params as { id: string; parameterId: string };
      return answerWrite(ctx, 200, (doc) => updateParameter(doc, id, parameterId, ctx.body));
    },
  }),

  /** Removes a parameter and its placeholders; answers it as it was (for undo, docs/adr/0013-text-snippet-parameters.md "Text snippet parameters"). */
  'DELETE /api/text-snippet/{id}/parameter/{parameterId}': route({
    body: TargetBody,
    query: TargetQuery,
    handle: async (ctx) => {
      const { id, parameterId } = ctx.params as { id: string; parameterId: string };
      return answerWrite(ctx, 200, (doc) => removeParameter(doc, id, parameterId));
    },
  }),

  /** Removes several parameters of one text snippet, all or nothing (docs/adr/0013-text-snippet-parameters.md "Text snippet parameters"). */
  'DELETE /api/text-snippet/delete-parameters': route({
    body: DeleteParametersBody,
    query: TargetQuery,
    handle: async (ctx) => {
      const { textSnippetId, parameterIds } = ctx.body;
      return answerWrite(ctx, 200, (doc) => removeParameters(doc, textSnippetId, parameterIds));
    },
  }),

  /**
   * The formatting toggle and option (docs/adr/0013-text-snippet-parameters.md "Text snippet
   * parameters": "Text transform"): `checkFormating` switches on or off (off clears the option key
   * and name), `formatOptionKey` chooses an option; a body with neither toggles.
   */
  'POST /api/text-snippet/{id}/parameter/{parameterId}/checkFormating': route({
    body: CheckFormatingBody,
    query: TargetQuery,
    handle: async (ctx) => {
      const { id, parameterId } = ctx.params as { id: string; parameterId: string };
      return answerWrite(ctx, 200, (doc) =>
        changeParameterTextTransform(doc, id, parameterId, ctx.body),
      );
    },
  }),

  /**
   * One parameter's data, read only: the parameter and `fallback`, what the render draws for a
   * recipient without a value (transform applied; empty for a blank fallback).
   */
  'POST /api/text-snippet/{id}/parameter/{parameterId}/getParameterData': route({
    body: TargetBody,
    query: TargetQuery,
    handle: async (ctx) => {
      const { id, parameterId } = ctx.params as { id: string; parameterId: string };
      const { parameter, version } = await readParameter(targetOf(ctx), id, parameterId);
      return json(200, {
        success: true,
        parameter,
        fallback: resolveParameter(parameter, undefined),
        version,
      });
    },
  }),
});
