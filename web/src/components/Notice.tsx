import type { ReactNode } from 'react';

export type NoticeTone = 'info' | 'success' | 'error';

const ICON: Record<NoticeTone, string> = { info: 'i', success: '✓', error: '!' };

/**
 * A message box. Errors are announced at once (`role="alert"`), info and success politely
 * (`role="status"`). The tone is carried by the icon, the title and the colour together.
 */
export function Notice({
  tone,
  title,
  children,
}: {
  tone: NoticeTone;
  title?: string;
  children: ReactNode;
}) {
  return (
    <div className={`notice notice--${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      <span className="notice__icon" aria-hidden="true">
        {ICON[tone]}
      </span>
      <div className="notice__body">
        {title && <p className="notice__title">{title}</p>}
        <div>{children}</div>
      </div>
    </div>
  );
}
