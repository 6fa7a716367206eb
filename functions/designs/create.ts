/**
 * Making designs (docs/adr/0018-design-lists.md "Design lists": "Clone creates a new design",
 * docs/adr/0019-design-api-shapes.md "Design API shapes": "Design actions"): from a base photo
 * (`POST /api/pic-snippet`), as a clone (`PUT /pic-snippet/{id}/copy`) and from a template (`POST
 * /pic-snippet/{id}/createFromTemplate`). Each is refused for a frozen team
 * (docs/adr/0018-design-lists.md "Design lists") and writes one new item with a new public render
 * id.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { db } from '#lib/db/index.ts';
import { copyParameterName } from '#shared/parameter-rules.ts';
import { renamePlaceholder, takenParameterNames } from '#shared/parameters.ts';
import {
  createDesignDocument,
  DesignDocumentSchema,
  parseDesignDocument,
  type DesignDocument,
} from '#shared/design.ts';
import type { BaseImage } from './base-images.ts';
import { assertDesignRoom } from '#domain/team-permissions.ts';
import {
  assertTeamNotFrozen,
  loadDesign,
  loadTemplate,
  storableDocument,
  type DesignRecord,
} from './store.ts';
import { copyTitle, newTitle } from './titles.ts';

/**
 * A new public render id: 64 random bits as 11 URL-safe characters (the `/r/{publicId}` pattern
 * of shared/render-url.ts). Guessing one is impractical, and a collision is as unlikely.
 */
export const newPublicId = (): string => randomBytes(8).toString('base64url');

/**
 * Writes a new design of `teamId`: status active, version 1, no views.
 * @throws ZodError when the document is invalid (the callers build valid ones).
 */
async function insertDesign(
  teamId: string,
  title: string,
  document: DesignDocument,
): Promise<DesignRecord> {
  const created = await db()
    .Design.create({
      designId: `design-${randomUUID()}`,
      teamId,
      publicId: newPublicId(),
      title,
      status: 'active',
      isTemplate: false,
      version: 1,
      document: storableDocument(DesignDocumentSchema.parse(document)),
      counter: 0,
    })
    .go();
  return created.data as DesignRecord;
}

/**
 * Creates a design on a base photo (docs/adr/0019-design-api-shapes.md "Design API shapes": `POST
 * /api/pic-snippet` `{image_id, title?}`). The canvas takes the photo's size, its width capped at
 * 1056 px (createDesignDocument).
 * @param title the submitted title; blank gives the photo's title.
 * @throws AppError 403 for a frozen team or one at its design limit (functions/domain/team-permissions.ts),
 *   422 (`title`) for a title over 255 characters.
 */
export async function createDesign(
  teamId: string,
  image: BaseImage,
  title: string | undefined,
): Promise<DesignRecord> {
  const name = newTitle(title, image.title || 'Untitled');
  await assertTeamNotFrozen(teamId, 'create');
  await assertDesignRoom(teamId);
  const document = createDesignDocument({
    image_id: image.imageId,
    base_image_key: image.key,
    image_width: image.width,
    image_height: image.height,
  });
  return insertDesign(teamId, name, document);
}

/**
 * The document of a clone: every text parameter renamed to `{name}_copy{n}` with its
 * placeholders (docs/editor.md "Editing rules": "copies get suffix _copy plus a number";
 * copyParameterName of shared/parameter-rules.ts), so no name of the copy is the original's.
 */
export function cloneDocument(document: DesignDocument): DesignDocument {
  const taken = new Set(takenParameterNames(document));
  return {
    ...document,
    text_snippets: document.text_snippets.map((snippet) => {
      let { text, original_text: originalText } = snippet;
      const parameters = snippet.parameters.map((parameter) => {
        const name = copyParameterName(parameter.param_name, taken);
        taken.add(name);
        text = renamePlaceholder(text, parameter.param_name, name);
        originalText = renamePlaceholder(originalText, parameter.param_name, name);
        return { ...parameter, param_name: name, original_param_name: name };
      });
      return { ...snippet, text, original_text: originalText, parameters };
    }),
  };
}

/**
 * Clones a design of the team (docs/adr/0018-design-lists.md "Design lists", docs/editor.md
 * "Editing rules"): title "Copy of - …", parameters renamed, active, no views, a new public render
 * id.
 * @throws AppError 404 (not the team's), 403 (frozen team, or at its design limit).
 */
export async function cloneDesign(teamId: string | undefined, designId: string) {
  const original = await loadDesign(teamId, designId);
  await assertTeamNotFrozen(original.teamId, 'clone');
  await assertDesignRoom(original.teamId);
  const document = parseDesignDocument(original.document);
  return insertDesign(original.teamId, copyTitle(original.title), cloneDocument(document));
}

/**
 * Makes a design of the caller's team from an enabled template (docs/adr/0020-dashboard-spa.md
 * "Dashboard SPA" "/pic-snippet/{id}/createFromTemplate"): the template's title and document,
 * parameter names unchanged (nothing of the team's can collide with them).
 * @throws AppError 404 (no such enabled template), 403 (frozen team, or at its design limit).
 */
export async function createFromTemplate(teamId: string | undefined, templateId: string) {
  const template = await loadTemplate(templateId);
  await assertTeamNotFrozen(teamId, 'create');
  await assertDesignRoom(teamId);
  return insertDesign(teamId!, template.title, parseDesignDocument(template.document));
}
