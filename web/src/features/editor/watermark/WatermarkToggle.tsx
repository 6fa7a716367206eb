import { Link } from 'react-router-dom';
import { useEditor, useEditorContext } from '../EditorContext.tsx';
import { useWatermarkSettings } from './useWatermarkSettings.ts';
import './watermark.css';

/**
 * The design's "Show watermark" switch (document field `show_watermark`; docs/adr/0057-watermark.md
 * "Watermark"): an undoable change saved by the full save. Without a team watermark it says
 * where to set one; on a plan with the product mark it says so.
 */
export function WatermarkToggle() {
  const { store } = useEditorContext();
  const shown = useEditor((s) => s.design?.show_watermark ?? false);
  const { team } = useWatermarkSettings();
  const settings = team ? `/settings/companies/${encodeURIComponent(team.id)}` : null;
  return (
    <span className="watermark-toggle small">
      <label className="watermark-toggle">
        <input
          type="checkbox"
          checked={shown}
          aria-describedby="watermark-toggle-hint"
          onChange={(e) => {
            const on = e.target.checked;
            store
              .getState()
              .applyChange(
                { eventType: 'image.event', label: on ? 'Show watermark' : 'Hide watermark' },
                (draft) => {
                  draft.show_watermark = on;
                },
              );
          }}
        />
        Show watermark
      </label>
      <span id="watermark-toggle-hint" className="muted">
        {team && !team.watermark && settings && (
          <>
            {' '}
            (<Link to={`${settings}#/companies`}>set your logo</Link>)
          </>
        )}
        {team?.product_watermark && settings && (
          <>
            {' '}
            Free plan: the PicSnippets mark shows (
            <Link to={`${settings}#/subscription`}>upgrade</Link>)
          </>
        )}
      </span>
    </span>
  );
}
