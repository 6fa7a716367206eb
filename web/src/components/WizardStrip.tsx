/** The registration steps in order (spec 001 §2: "Create Account, Billing, Confirmation"). */
export const WIZARD_STEPS = ['Create Account', 'Billing', 'Confirmation'] as const;

/**
 * The registration wizard strip: an ordered list of the steps, the current one marked
 * `aria-current="step"`, finished ones with a tick and "(done)" for screen readers.
 *
 * @param current index into {@link WIZARD_STEPS}: 0 account details, 1 plan, 2 confirmation.
 */
export function WizardStrip({ current }: { current: 0 | 1 | 2 }) {
  return (
    <nav aria-label="Registration steps" className="wizard">
      <ol className="wizard__list">
        {WIZARD_STEPS.map((label, i) => {
          const state = i < current ? 'done' : i === current ? 'current' : 'todo';
          return (
            <li
              key={label}
              className={`wizard__step wizard__step--${state}`}
              aria-current={state === 'current' ? 'step' : undefined}
            >
              <span className="wizard__marker" aria-hidden="true">
                {state === 'done' ? '✓' : i + 1}
              </span>
              <span className="wizard__label">
                {label}
                {state === 'done' && <span className="visually-hidden"> (done)</span>}
              </span>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
