/**
 * The kiosk's announcements (docs/kiosk.md "Announcements", docs/kiosk.md "Kiosk"; docs/kiosk.md
 * "Announcements"): platform admins write, edit and delete the announcements every user sees in
 * the notifications panel, which reads the same Announcement items newest first, so an edit
 * shows there on its next read.
 */
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import {
  ANNOUNCEMENTS_LISTED,
  AnnouncementBody,
  type Announcement,
} from '#shared/contract/kiosk.ts';
import type { EntityItem } from 'electrodb';
import { db } from '#lib/db/index.ts';
import type { Entities } from '#lib/db/entities.ts';
import { notFound } from '#lib/errors.ts';
import { json, route, type RouteDefinition } from '#lib/http.ts';

type AnnouncementItem = EntityItem<Entities['Announcement']>;

/** An Announcement item as the API answers it (`AnnouncementSchema`). */
function view(item: AnnouncementItem): Announcement {
  return {
    id: item.announcementId,
    body: item.body,
    action_text: item.actionText ?? null,
    action_url: item.actionUrl ?? null,
    icon: (item.icon ?? 'megaphone') as Announcement['icon'],
    created_at: item.createdAt ?? '',
    updated_at: item.updatedAt ?? item.createdAt ?? '',
  };
}

/** The stored fields of a checked body; an absent action is stored as none. */
function fields(body: z.output<typeof AnnouncementBody>) {
  return {
    body: body.body,
    icon: body.icon,
    ...(body.action_text && body.action_url
      ? { actionText: body.action_text, actionUrl: body.action_url }
      : {}),
  };
}

/** The announcement `id`. @throws AppError 404 when there is none. */
async function existing(id: string): Promise<AnnouncementItem> {
  const item = (await db().Announcement.get({ announcementId: id }).go()).data;
  if (!item) throw notFound();
  return item;
}

/** These routes, by route key. */
export const ANNOUNCEMENT_ROUTES: Record<string, RouteDefinition> = {
  /** The newest {@link ANNOUNCEMENTS_LISTED} announcements, newest first. */
  'GET /spark/kiosk/announcements': route({
    handle: async () => {
      const { data } = await db()
        .Announcement.query.byScope({ scope: 'all' })
        .go({ order: 'desc', limit: ANNOUNCEMENTS_LISTED });
      return json(200, data.map(view));
    },
  }),

  /** 422 with field errors for a bad body (a link that is not http or https, …). */
  'POST /spark/kiosk/announcements': route({
    body: AnnouncementBody,
    handle: async ({ body, auth }) => {
      // One instant for both, so a new announcement does not read as edited.
      const at = new Date().toISOString();
      const { data } = await db()
        .Announcement.create({
          announcementId: randomUUID(),
          createdAt: at,
          updatedAt: at,
          authorId: auth.user?.userId,
          ...fields(body),
        })
        .go();
      return json(201, view(data as AnnouncementItem));
    },
  }),

  /** Replaces the body, action and icon; `created_at` (the panel's order) stays. */
  'PUT /spark/kiosk/announcements/{id}': route({
    body: AnnouncementBody,
    handle: async ({ body, params }) => {
      const id = params.id!;
      await existing(id);
      const set = fields(body);
      const update = db().Announcement.patch({ announcementId: id }).set(set);
      const { data } = await (
        'actionText' in set ? update : update.remove(['actionText', 'actionUrl'])
      ).go({ response: 'all_new' });
      return json(200, view(data as AnnouncementItem));
    },
  }),

  'DELETE /spark/kiosk/announcements/{id}': route({
    handle: async ({ params }) => {
      const id = params.id!;
      await existing(id);
      await db().Announcement.delete({ announcementId: id }).go();
      return json(200, { success: true });
    },
  }),
};
