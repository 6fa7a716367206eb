import type { KioskTabProps } from './tab.ts';

/** The kiosk's CancelReasons tab. */
export function CancelReasonsTab(_props: KioskTabProps) {
  return <p className="muted">Not built yet.</p>;
}
