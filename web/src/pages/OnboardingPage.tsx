import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { USE_CASES, type UseCaseKey } from '#shared/onboarding.ts';
import { call } from '../api/client.ts';
import { Notice } from '../components/Notice.tsx';
import { WizardStrip } from '../components/WizardStrip.tsx';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { actionFailure } from '../features/settings/formFailure.ts';
import { SubmitButton } from '../features/settings/ProfileTab.tsx';
import { SignedInOnly } from '../components/SignedInOnly.tsx';
import { useAppStore } from '../state/store.ts';

const STEPS = ['Your use case', 'Ideas', 'Start designing'] as const;

/**
 * `/onboarding` (spec 001 §2): step 1 picks one of the eight use cases, step 2 shows what to
 * make with it and continues, step 3 saves the choice (`PUT /settings/onboarding`) and goes to
 * the use case's address (shared/onboarding.ts). The heading of each step takes focus so the
 * change is announced; Back keeps the choice.
 */
export function OnboardingPage() {
  useDocumentTitle('Get started');
  const saved = useAppStore((s) => s.user?.onboarding_use_case ?? null);
  const [step, setStep] = useState<0 | 1 | 2>(0);
  const [choice, setChoice] = useState<UseCaseKey | null>(saved as UseCaseKey | null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const navigate = useNavigate();
  const heading = useRef<HTMLHeadingElement>(null);
  const base = useId();
  const first = useRef(true);

  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    heading.current?.focus();
  }, [step]);

  const useCase = USE_CASES.find((u) => u.key === choice);

  function next(event: FormEvent) {
    event.preventDefault();
    if (!choice) {
      setError('Choose the use case closest to yours.');
      return;
    }
    setError(null);
    setStep(1);
  }

  async function finish() {
    if (!choice || pending) return;
    setPending(true);
    setError(null);
    setStep(2);
    try {
      const answer = await call('PUT /settings/onboarding', { body: { use_case: choice } });
      navigate(answer.redirect);
    } catch (failure) {
      setError(actionFailure(failure));
      setStep(1);
    } finally {
      setPending(false);
    }
  }

  return (
    <SignedInOnly>
      <div className="container container--narrow stack">
        <WizardStrip current={step} steps={STEPS} label="Onboarding steps" />
        <section className="card stack" aria-labelledby={`${base}-title`}>
          {step === 0 && (
            <form className="stack" noValidate onSubmit={next}>
              <h1 ref={heading} tabIndex={-1} id={`${base}-title`} className="page-title">
                What will you make first?
              </h1>
              <p className="muted">
                Pick the use case closest to yours. We will open templates made for it; you can use
                any template later.
              </p>
              {error && <Notice tone="error">{error}</Notice>}
              <fieldset className="use-cases">
                <legend className="visually-hidden">Use case</legend>
                {USE_CASES.map((u) => (
                  <div
                    key={u.key}
                    className={`plan-option ${choice === u.key ? 'plan-option--selected' : ''}`}
                  >
                    <input
                      id={`${base}-${u.key}`}
                      className="plan-option__radio"
                      type="radio"
                      name="use_case"
                      value={u.key}
                      checked={choice === u.key}
                      onChange={() => setChoice(u.key)}
                      aria-describedby={`${base}-${u.key}-summary`}
                    />
                    <label htmlFor={`${base}-${u.key}`} className="plan-option__label">
                      <span className="plan-option__name">{u.title}</span>
                    </label>
                    <p id={`${base}-${u.key}-summary`} className="use-case__summary muted">
                      {u.summary}
                    </p>
                  </div>
                ))}
              </fieldset>
              <div className="form-actions">
                <button type="submit" className="button">
                  Next
                </button>
              </div>
            </form>
          )}
          {step >= 1 && useCase && (
            <div className="stack">
              <h1 ref={heading} tabIndex={-1} id={`${base}-title`} className="page-title">
                {useCase.title}: ideas to start with
              </h1>
              <ul className="use-case__ideas">
                {useCase.ideas.map((idea) => (
                  <li key={idea}>{idea}</li>
                ))}
              </ul>
              <p className="muted">
                Each idea is a photo with text snippets such as <code>{'{{first_name}}'}</code>;
                every recipient sees their own values.
              </p>
              {error && <Notice tone="error">{error}</Notice>}
              <div className="form-actions">
                <button
                  type="button"
                  className="button button--secondary"
                  onClick={() => setStep(0)}
                  disabled={pending}
                >
                  Back
                </button>
                <form
                  onSubmit={(e) => {
                    e.preventDefault();
                    void finish();
                  }}
                >
                  <SubmitButton pending={pending} label="Continue" busyLabel="Opening templates…" />
                </form>
              </div>
            </div>
          )}
        </section>
      </div>
    </SignedInOnly>
  );
}
