import type { KioskTabProps } from './tab.ts';

/** The kiosk's Stickers tab. */
export function StickersTab(_props: KioskTabProps) {
  return <p className="muted">Not built yet.</p>;
}
