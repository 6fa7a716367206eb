import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import type { DesignDetails } from '../../api/designs.ts';
import { Notice } from '../../components/Notice.tsx';
import { Spinner } from '../../components/Spinner.tsx';

/** docs/adr/0023-team-roles.md "Team roles", docs/editor.md "Messages": the message where a plan lacks a Pro feature. */
export const PRO_ONLY_MESSAGE = 'This feature is available only for Pro plans.';

type Mode = 'image' | 'pdf';

/**
 * The viewer (docs/adr/0020-dashboard-spa.md "Dashboard SPA": "A viewer component shows a design as
 * image or as PDF"): the render of the current version (`preview_url`) in a box of the canvas's
 * aspect ratio, or the PDF render (`{base_url}/pdf`, docs/adr/0004-render-slice.md "Render slice")
 * in a frame. The PDF is for teams whose plan has `can_export_pdf` (docs/adr/0023-team-roles.md
 * "Team roles"); others get the plan message and the way to the team's subscription settings.
 *
 * @param upgradePath the team's subscription settings (`/settings/companies/{teamId}#/subscription`).
 */
export function DesignViewer({
  design,
  canExportPdf,
  upgradePath,
}: {
  design: DesignDetails;
  canExportPdf: boolean;
  upgradePath: string | null;
}) {
  const [mode, setMode] = useState<Mode>('image');
  const labelId = useId();
  const pdfUrl = `${design.base_url}/pdf`;
  return (
    <section className="viewer stack" aria-labelledby={labelId}>
      <div className="viewer__bar">
        <h2 id={labelId} className="card__title">
          Preview
        </h2>
        <div className="toggle" role="group" aria-label="Show the design as">
          {(['image', 'pdf'] as const).map((option) => (
            <button
              key={option}
              type="button"
              className="toggle__option"
              aria-pressed={mode === option}
              onClick={() => setMode(option)}
            >
              {option === 'image' ? 'Image' : 'PDF'}
            </button>
          ))}
        </div>
      </div>
      {mode === 'image' && <ViewerImage key={design.preview_url} design={design} />}
      {mode === 'pdf' &&
        (canExportPdf ? (
          <div className="stack">
            <iframe
              className="viewer__pdf"
              src={pdfUrl}
              title={`${design.title} as a PDF`}
              style={{ aspectRatio: `${design.canvas_width} / ${design.canvas_height}` }}
            />
            <p className="small">
              <a href={pdfUrl} target="_blank" rel="noopener">
                Open the PDF in a new tab
              </a>
            </p>
          </div>
        ) : (
          <Notice tone="info" title="PDF">
            {PRO_ONLY_MESSAGE} {upgradePath && <Link to={upgradePath}>Upgrade</Link>}
          </Notice>
        ))}
    </section>
  );
}

/**
 * The rendered image: the frame shimmers while the render service draws it (the caption says
 * so, politely), and a failure offers Try again.
 */
function ViewerImage({ design }: { design: DesignDetails }) {
  const [phase, setPhase] = useState<'loading' | 'loaded' | 'error'>('loading');
  const [attempt, setAttempt] = useState(0);
  return (
    <figure className="preview">
      <div
        className={`preview__frame preview__frame--${phase}`}
        style={{ aspectRatio: `${design.canvas_width} / ${design.canvas_height}` }}
        aria-busy={phase === 'loading'}
      >
        <img
          key={attempt}
          className="preview__image viewer__image"
          src={design.preview_url}
          alt={design.title}
          width={design.canvas_width}
          height={design.canvas_height}
          decoding="async"
          data-testid="design-preview"
          onLoad={() => setPhase('loaded')}
          onError={() => setPhase('error')}
        />
      </div>
      <figcaption className="preview__caption viewer__caption" role="status">
        {phase === 'loading' && (
          <>
            <Spinner /> Rendering the preview…
          </>
        )}
        {phase === 'error' && (
          <>
            The preview could not be loaded.{' '}
            <button
              type="button"
              className="button button--secondary button--small"
              onClick={() => {
                setPhase('loading');
                setAttempt((n) => n + 1);
              }}
            >
              Try again
            </button>
          </>
        )}
      </figcaption>
    </figure>
  );
}
