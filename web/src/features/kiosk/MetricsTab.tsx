import type { KioskTabProps } from './tab.ts';

/** The kiosk's Metrics tab. */
export function MetricsTab(_props: KioskTabProps) {
  return <p className="muted">Not built yet.</p>;
}
