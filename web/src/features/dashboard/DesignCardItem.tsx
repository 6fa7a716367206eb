import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import type { DesignCard } from '../../api/designs.ts';
import { Spinner } from '../../components/Spinner.tsx';
import { countedLabel, opensLabel } from './format.ts';
import { formatDay } from '../../lib/format.ts';

/** A button on a card. */
export interface CardAction {
  key: string;
  label: string;
  /** The action is under way on this card. */
  pending: boolean;
  /** Not allowed now (another action runs, or the team is frozen); the button stays focusable. */
  disabled: boolean;
  /** Id of the text that says why the button is disabled. */
  describedBy?: string;
  primary?: boolean;
  onClick: () => void;
}

/** A link on a card, shown as its buttons are (the design's analytics). */
export interface CardLink {
  key: string;
  label: string;
  /** A path on this origin. */
  href: string;
}

/**
 * A dashboard card (docs/adr/0020-dashboard-spa.md "Dashboard SPA": "A card shows preview image,
 * title, created date and views count"): the render of the current version, lazy-loaded in a fixed
 * 3:2 box so the grid does not move as previews arrive (shimmering while the render service draws
 * it); the title, linked to the show page when `href` is given (the link covers the card, the
 * buttons stay above it); the created day and the views; the card's actions and links, each naming
 * the design for screen readers ("Archive My sale").
 */
export function DesignCardItem({
  card,
  href,
  actions,
  links = [],
}: {
  card: DesignCard;
  href?: string;
  actions: CardAction[];
  links?: CardLink[];
}) {
  const titleId = useId();
  const [preview, setPreview] = useState<'loading' | 'loaded' | 'failed'>(
    card.preview_url === '' ? 'failed' : 'loading',
  );
  const created = formatDay(card.created_at);
  return (
    <li className="design-card" data-testid="design-card" data-design-id={card.id}>
      <article className="design-card__inner" aria-labelledby={titleId}>
        <div
          className={`design-card__preview design-card__preview--${preview}${preview === 'loading' ? ' preview__frame--loading' : ''}`}
          aria-busy={preview === 'loading'}
        >
          {preview === 'failed' ? (
            <span className="design-card__no-preview">Preview not available</span>
          ) : (
            <img
              src={card.preview_url}
              alt={card.title}
              loading="lazy"
              decoding="async"
              width={360}
              height={240}
              onLoad={() => setPreview('loaded')}
              onError={() => setPreview('failed')}
            />
          )}
        </div>
        <div className="design-card__body">
          <h3 id={titleId} className="design-card__title">
            {href ? (
              <Link to={href} className="design-card__link">
                {card.title}
              </Link>
            ) : (
              card.title
            )}
          </h3>
          <p className="design-card__meta muted">
            {created && <time dateTime={card.created_at}>Created {created}</time>}
            {created && <span aria-hidden="true"> · </span>}
            <span title={countedLabel(card.counted_at) ?? undefined}>
              {opensLabel(card.counter)}
            </span>
          </p>
        </div>
        {actions.length + links.length > 0 && (
          <div className="design-card__actions">
            {actions.map((action) => (
              <button
                key={action.key}
                type="button"
                className={`button button--small${action.primary ? '' : ' button--secondary'}`}
                aria-disabled={action.disabled || action.pending}
                aria-describedby={action.disabled ? action.describedBy : undefined}
                onClick={() => {
                  if (!action.disabled && !action.pending) action.onClick();
                }}
              >
                {action.pending && <Spinner />}
                {action.label}
                <span className="visually-hidden"> {card.title}</span>
              </button>
            ))}
            {links.map((link) => (
              <Link
                key={link.key}
                to={link.href}
                className="button button--small button--secondary"
              >
                {link.label}
                <span className="visually-hidden"> {card.title}</span>
              </Link>
            ))}
          </div>
        )}
      </article>
    </li>
  );
}

/** A card-shaped placeholder while the first page loads (decorative: the list says "Loading"). */
export function DesignCardSkeleton() {
  return (
    <li className="design-card design-card--skeleton" aria-hidden="true">
      <div className="design-card__inner">
        <span className="design-card__preview skeleton" />
        <div className="design-card__body">
          <span className="skeleton skeleton--text" style={{ width: '70%' }} />
          <span className="skeleton skeleton--text" style={{ width: '45%' }} />
        </div>
      </div>
    </li>
  );
}
