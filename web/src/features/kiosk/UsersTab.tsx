import type { KioskTabProps } from './tab.ts';

/** The kiosk's Users tab. */
export function UsersTab(_props: KioskTabProps) {
  return <p className="muted">Not built yet.</p>;
}
