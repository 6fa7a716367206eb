/**
 * The parameter calls' domain side (docs/adr/0013-text-snippet-parameters.md "Text snippet
 * parameters": "Text snippet parameters"): finds the design a call acts on, runs a pure operation
 * of `shared/parameters.ts` inside the versioned write of `functions/designs/store.ts`, and maps
 * refusals to HTTP errors.
 *
 * A text snippet lives inside its design's item (docs/adr/0019-design-api-shapes.md "Design API
 * shapes"), so a call names its design with `pic_snippet_id` (body, or the query string of a
 * DELETE); see docs/adr/0013-text-snippet-parameters.md "Text snippet parameters". The store
 * answers 404 for another team's design and 409 for a stale `version`.
 */
import { loadDesign, updateDesign } from '#functions/designs/store.ts';
import { notFound, validationFailed, type AppError } from '#lib/errors.ts';
import { parseDesignDocument, type DesignDocument } from '#shared/design.ts';
import { ParameterError, findParameter } from '#shared/parameters.ts';

/** The design a parameter call acts on, and the version the caller last read (optional). */
export interface DesignTarget {
  /** The caller's current team; the design must belong to it. */
  teamId: string | undefined;
  designId: string;
  /** When given, a write refuses with 409 unless the design is still at this version. */
  version?: number | undefined;
}

/** Messages of this feature (the spec gives none for these cases). */
export const PARAMETER_CALL_MESSAGES = {
  designRequired: 'The pic snippet id field is required.',
} as const;

/** Maps a refusal of the pure operations to the HTTP error (404, or 422 with field errors). */
export function parameterHttpError(error: ParameterError): AppError {
  if (error.kind === 'invalid') return validationFailed(error.errors, error.message);
  return notFound(error.message);
}

/** Runs `fn`, turning a ParameterError into its HTTP error. */
function mapped<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    throw error instanceof ParameterError ? parameterHttpError(error) : error;
  }
}

/**
 * Reads one parameter of a design of the caller's team.
 * @returns the parameter (with its `text_snippet_id`) and the design's version.
 * @throws AppError 404 for an unknown or other team's design, text snippet or parameter.
 */
export async function readParameter(target: DesignTarget, textSnippetId: string, paramId: string) {
  const record = await loadDesign(target.teamId, target.designId);
  const document = parseDesignDocument(record.document);
  const { parameter } = mapped(() => findParameter(document, textSnippetId, paramId));
  return { parameter, version: record.version };
}

/**
 * Applies a pure parameter operation to the design in one versioned write: the operation runs
 * on the stored document (again, if a concurrent write got in first and no `version` was
 * given), and the document it returns is written with the version bumped. Nothing is written
 * when it throws.
 * @param operation one of `shared/parameters.ts` (add, update, remove), bound to its arguments.
 * @returns the operation's result and the design's new version.
 * @throws AppError 404 (design, text snippet or parameter), 409 stale version, 422 field errors.
 */
export async function writeParameters<R extends { document: DesignDocument }>(
  target: DesignTarget,
  operation: (document: DesignDocument) => R,
): Promise<{ result: R; version: number }> {
  let result: R | undefined;
  const written = await updateDesign(
    target.teamId,
    target.designId,
    target.version,
    ({ document }) => {
      result = mapped(() => operation(document));
      return { document: result.document };
    },
  );
  return { result: result!, version: written.version };
}
