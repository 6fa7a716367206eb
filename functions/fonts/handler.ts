/**
 * The `fonts` feature (docs/fonts.md "Uploads": "Images, stickers, fonts"; docs/fonts.md): the
 * picker's font list (`GET /api/fonts`), the team's uploaded fonts (`GET /getCustomFonts`) and the
 * upload (`POST /storeFont`, Pro plans only: docs/adr/0023-team-roles.md "Team roles"
 * `can_upload_custom_fonts`).
 */
import { db } from '#lib/db/index.ts';
import { config } from '#lib/config.ts';
import { forbidden, paymentRequired } from '#lib/errors.ts';
import { featureHandler, json, route } from '#lib/http.ts';
import type { AuthUser } from '#lib/auth.ts';
import { fontGroups } from '#shared/fonts/catalogue.ts';
import { teamCustomFonts } from './list.ts';
import { customFontsView, storeCustomFont, teamFontsPath } from './store.ts';
import { readFontFile } from './validate.ts';

/** The caller's current team; every font call acts for it. */
function teamOf(user: AuthUser | undefined): string {
  if (!user?.currentTeamId) throw forbidden('Choose a company first.');
  return user.currentTeamId;
}

/**
 * docs/adr/0023-team-roles.md "Team roles": font upload needs the team's plan to have
 * `can_upload_custom_fonts`.
 * @throws AppError 402 'This feature is available only for Pro plans.' (docs/accounts.md "Error answers in the SPA": the SPA
 *   then offers the subscription settings).
 */
async function requireFontUpload(teamId: string): Promise<void> {
  const team = (await db().Team.get({ teamId }).go()).data;
  const plan = team ? (await db().Plan.get({ planId: team.planId }).go()).data : null;
  if (plan?.can_upload_custom_fonts !== true) throw paymentRequired();
}

export const handler = featureHandler('fonts', {
  'GET /api/fonts': route({
    // The font list is the same for every team: cacheable by the browser for an hour.
    handle: async () => {
      const cdnUrl = config().FONT_CDN_URL ?? null;
      return json(
        200,
        { success: true, groups: fontGroups(cdnUrl ?? undefined), cdnUrl },
        { 'cache-control': 'private, max-age=3600' },
      );
    },
  }),

  'GET /getCustomFonts': route({
    handle: async ({ auth }) => {
      const teamId = teamOf(auth.user);
      const fonts = await teamCustomFonts(teamId);
      return json(200, {
        success: true,
        customFonts: customFontsView(fonts),
        fontsPath: teamFontsPath(teamId),
      });
    },
  }),

  'POST /storeFont': route({
    handle: async ({ body, auth }) => {
      const teamId = teamOf(auth.user);
      await requireFontUpload(teamId);
      const font = await readFontFile(body);
      const stored = await storeCustomFont(teamId, auth.user!.userId, font);
      const fonts = await teamCustomFonts(teamId);
      return json(stored.existed ? 200 : 201, {
        success: true,
        fontName: stored.font.family,
        fontPath: stored.font.url,
        customFonts: customFontsView(fonts),
        fontsPath: teamFontsPath(teamId),
        message: stored.existed
          ? `${stored.font.family} is already uploaded.`
          : `${stored.font.family} was uploaded.`,
      });
    },
  }),
});
