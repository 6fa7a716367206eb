import type { KioskTabProps } from './tab.ts';

/** The kiosk's Library tab. */
export function LibraryTab(_props: KioskTabProps) {
  return <p className="muted">Not built yet.</p>;
}
