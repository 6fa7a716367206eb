import type { KioskTabProps } from './tab.ts';

/** The kiosk's Teams tab. */
export function TeamsTab(_props: KioskTabProps) {
  return <p className="muted">Not built yet.</p>;
}
