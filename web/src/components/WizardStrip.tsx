/** The registration steps in order (docs/accounts.md "Screens": "Create Account, Billing, Confirmation"). */
export const WIZARD_STEPS = ['Create Account', 'Billing', 'Confirmation'] as const;

/**
 * A wizard strip: an ordered list of the steps, the current one marked `aria-current="step"`,
 * finished ones with a tick and "(done)" for screen readers. Registration's by default.
 *
 * @param current index into `steps` (registration: 0 account details, 1 plan, 2 confirmation).
 * @param steps the step labels; {@link WIZARD_STEPS} unless given.
 * @param label the navigation landmark's name.
 */
export function WizardStrip({
  current,
  steps = WIZARD_STEPS,
  label = 'Registration steps',
}: {
  current: number;
  steps?: readonly string[];
  label?: string;
}) {
  return (
    <nav aria-label={label} className="wizard">
      <ol className="wizard__list">
        {steps.map((label, i) => {
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
