import type { KioskTabProps } from './tab.ts';

/** The kiosk's Announcements tab. */
export function AnnouncementsTab(_props: KioskTabProps) {
  return <p className="muted">Not built yet.</p>;
}
