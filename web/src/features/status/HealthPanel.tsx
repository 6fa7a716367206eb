import { useId } from 'react';
import { SERVICES, type Health } from '../../api/health.ts';
import { Notice } from '../../components/Notice.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { useHealth } from '../../hooks/useHealth.ts';
import { APP_LOCALE } from '../../lib/format.ts';

/**
 * "System status": what `GET /api/health` says about each backing service, with loading,
 * error and refresh. Headings start at `level` so the panel fits the page it sits in.
 */
export function HealthPanel({ headingLevel = 2 }: { headingLevel?: 1 | 2 }) {
  const titleId = useId();
  const { state, refresh } = useHealth();
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  const health =
    state.phase === 'ready' ? state.health : state.phase === 'loading' ? state.previous : undefined;

  return (
    <section
      className="card health"
      aria-labelledby={titleId}
      aria-busy={state.phase === 'loading'}
      data-testid="health"
    >
      <div className="health__header">
        <Heading id={titleId} className={headingLevel === 1 ? 'page-title' : 'card__title'}>
          System status
        </Heading>
        <button type="button" className="button button--secondary button--small" onClick={refresh}>
          {state.phase === 'loading' ? 'Checking…' : 'Check again'}
        </button>
      </div>

      <div role="status" aria-live="polite" className="health__summary">
        {state.phase === 'loading' && (
          <p className="health__summary-text">
            <Spinner /> Checking the services…
          </p>
        )}
        {state.phase === 'ready' && <Summary health={state.health} checkedAt={state.checkedAt} />}
      </div>

      {state.phase === 'error' && (
        <Notice tone="error" title="The health check did not answer">
          {state.message}
          {state.status >= 400 && <span className="muted"> (HTTP {state.status})</span>}
        </Notice>
      )}

      {health ? (
        <ul className="service-list">
          {SERVICES.map(({ key, name, holds }) => {
            const service = health.services[key];
            return (
              <li key={key} className="service" data-service={key}>
                <div className="service__text">
                  <span className="service__name">{name}</span>
                  <span className="service__holds">{holds}</span>
                  {service.error && <span className="service__error">{service.error}</span>}
                </div>
                <div className="service__state">
                  {service.ms !== undefined && (
                    <span className="service__ms">{Math.round(service.ms)} ms</span>
                  )}
                  <StatusBadge ok={service.ok} />
                </div>
              </li>
            );
          })}
        </ul>
      ) : (
        state.phase === 'loading' && (
          <ul className="service-list" aria-hidden="true">
            {SERVICES.map(({ key }) => (
              <li key={key} className="service service--skeleton">
                <span className="skeleton skeleton--text" />
                <span className="skeleton skeleton--badge" />
              </li>
            ))}
          </ul>
        )
      )}
    </section>
  );
}

function Summary({ health, checkedAt }: { health: Health; checkedAt: Date }) {
  const down = SERVICES.filter(({ key }) => !health.services[key].ok).map(({ name }) => name);
  const time = checkedAt.toLocaleTimeString(APP_LOCALE, {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  return (
    <p className="health__summary-text">
      <strong>
        {health.ok && down.length === 0
          ? 'All systems operational.'
          : down.length > 0
            ? `${down.join(' and ')} ${down.length > 1 ? 'are' : 'is'} down.`
            : 'The API reports a problem.'}
      </strong>{' '}
      <span className="muted">
        Checked at <time dateTime={checkedAt.toISOString()}>{time}</time>.
      </span>
    </p>
  );
}
