/**
 * The kiosk's announcements, performance indicators and cancel reasons (shared/contract/kiosk.ts;
 * docs/kiosk.md): the calls and their TanStack Query keys. Kiosk data is the admin's own view
 * of the whole platform, so its keys form their own family (`kiosk`), apart from
 * web/src/state/queryKeys.ts's per-team families.
 */
import type { AnnouncementInput } from '#shared/contract/kiosk.ts';
import { call } from './client.ts';

/** The kiosk's query keys (docs/adr/0045-server-state.md "Server state": from the general to the particular). */
export const kioskKeys = {
  all: ['kiosk'] as const,
  announcements: ['kiosk', 'announcements'] as const,
  indicators: ['kiosk', 'indicators'] as const,
  revenue: ['kiosk', 'indicators', 'revenue'] as const,
  plans: ['kiosk', 'indicators', 'plans'] as const,
  trialing: ['kiosk', 'indicators', 'trialing'] as const,
  cancelReasons: ['kiosk', 'cancel-reasons'] as const,
};

export const fetchAnnouncements = (signal?: AbortSignal) =>
  call('GET /spark/kiosk/announcements', { signal });

export const createAnnouncement = (body: AnnouncementInput) =>
  call('POST /spark/kiosk/announcements', { body });

export const updateAnnouncement = (id: string, body: AnnouncementInput) =>
  call('PUT /spark/kiosk/announcements/{id}', { params: { id }, body });

export const deleteAnnouncement = (id: string) =>
  call('DELETE /spark/kiosk/announcements/{id}', { params: { id } });

export const fetchIndicators = (signal?: AbortSignal) =>
  call('GET /spark/kiosk/performance-indicators', { signal });

export const fetchRevenue = (signal?: AbortSignal) =>
  call('GET /spark/kiosk/performance-indicators/revenue', { signal });

export const fetchPlanFigures = (signal?: AbortSignal) =>
  call('GET /spark/kiosk/performance-indicators/plans', { signal });

export const fetchTrialing = (signal?: AbortSignal) =>
  call('GET /spark/kiosk/performance-indicators/trialing', { signal });

export const fetchCancelReasons = (signal?: AbortSignal) =>
  call('GET /spark/cancelReasons', { signal });
