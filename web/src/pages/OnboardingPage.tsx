import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId, useRef, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link, useNavigate } from 'react-router-dom';
import { z } from 'zod';
import { OnboardingBody } from '#shared/contract/auth.ts';
import { USE_CASES } from '#shared/onboarding.ts';
import { call } from '../api/client.ts';
import { Notice } from '../components/Notice.tsx';
import { WizardStrip } from '../components/WizardStrip.tsx';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { SubmitButton } from '../features/settings/ProfileTab.tsx';
import { SignedInOnly } from '../components/SignedInOnly.tsx';
import { applyServerErrors, submitWith } from '../lib/forms.ts';
import { useAppStore } from '../state/store.ts';

const STEPS = ['Your use case', 'Ideas', 'Start designing'] as const;

/** What step 1 says when Next is pressed with no use case chosen (a client-only rule). */
const CHOOSE_MESSAGE = 'Choose the use case closest to yours.';

/**
 * The onboarding form: the route's body (`OnboardingBody`, shared/contract/auth.ts), with a
 * what-to-do message for no choice yet (the radios start unchecked: `null`).
 */
const OnboardingForm = z.object({
  use_case: z
    .string()
    .nullable()
    .refine((value) => value !== null, CHOOSE_MESSAGE)
    .pipe(OnboardingBody.shape.use_case),
});

/**
 * `/onboarding` (docs/adr/0016-onboarding.md "Onboarding"): step 1 picks one of the eight use
 * cases, step 2 shows what to make with it and continues, step 3 saves the choice (`PUT
 * /settings/onboarding`) and goes to the use case's address (shared/onboarding.ts). The heading of
 * each step takes focus so the change is announced; Back keeps the choice. The choice is a
 * react-hook-form field checked by {@link OnboardingForm}; a refusal of the save goes back to the
 * step that can fix it (docs/adr/0047-forms.md "Forms").
 */
export function OnboardingPage() {
  useDocumentTitle('Get started');
  const saved = useAppStore((s) => s.user?.onboarding_use_case ?? null);
  const [step, setStep] = useState<0 | 1 | 2>(0);
  const form = useForm<z.input<typeof OnboardingForm>, unknown, z.output<typeof OnboardingForm>>({
    resolver: zodResolver(OnboardingForm),
    defaultValues: { use_case: saved },
  });
  const choice = useWatch({ control: form.control, name: 'use_case' });
  const { errors, isSubmitting: pending } = form.formState;
  const error = errors.use_case?.message ?? errors.root?.server?.message ?? null;
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

  const next = submitWith(form, () => setStep(1));

  const finish = submitWith(form, async ({ use_case }) => {
    setStep(2);
    try {
      const answer = await call('PUT /settings/onboarding', { body: { use_case } });
      navigate(answer.redirect);
    } catch (failure) {
      const { placed } = applyServerErrors(form.setError, failure, ['use_case'] as const, {
        focus: false,
      });
      setStep(placed.length > 0 ? 0 : 1);
    }
  });

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
                      value={u.key}
                      {...form.register('use_case')}
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
                {/* Nothing is saved: the use case only chooses where the wizard leads. */}
                <Link to="/dashboard" className="button button--secondary">
                  Skip for now
                </Link>
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
                <form noValidate onSubmit={finish}>
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
