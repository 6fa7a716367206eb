import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import {
  PARTNER_COUPON_LOOKUP,
  paymentConfirmationPath,
  type RegistrationBilling,
} from '#shared/billing.ts';
import { teamSlug } from '#shared/team-slug.ts';
import { isApiError } from '../api/client.ts';
import { checkEmailFree, register, type RegistrationRequest } from '../api/registration.ts';
import { Notice } from '../components/Notice.tsx';
import { WizardStrip } from '../components/WizardStrip.tsx';
import { billingFieldIds } from '../features/billing/BillingAddressFields.tsx';
import { isBillingField } from '../features/billing/billingDetails.ts';
import { CardNotReady } from '../features/billing/CardField.tsx';
import { paymentIdOf } from '../features/billing/failure.ts';
import { useCouponLookup } from '../features/billing/hooks.ts';
import { ACCOUNT_FIELDS, isAccountField } from '../features/registration/account.ts';
import { AccountStep, type AccountFieldIds } from '../features/registration/AccountStep.tsx';
import { PlanStep } from '../features/registration/PlanStep.tsx';
import { couponFields } from '../features/registration/coupon.ts';
import {
  registrationFailure,
  type FocusTarget,
  type RegistrationNotice,
} from '../features/registration/failure.ts';
import { useAccountForm } from '../features/registration/useAccountForm.ts';
import { useInvitation, type InvitationState } from '../features/registration/useInvitation.ts';
import { usePayment } from '../features/registration/usePayment.ts';
import { usePlanChoice } from '../features/registration/usePlanChoice.ts';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { applyServerErrors, submitWith } from '../lib/forms.ts';
import { useAppStore } from '../state/store.ts';

/** What the confirmation page is told about the new account (router state). */
export interface RegisteredState {
  team: string;
  plan: string;
}

/** Element ids of the page's controls, derived from one `useId()` so they stay stable. */
function pageIds(base: string): AccountFieldIds & { title: string; heading: string; plan: string } {
  const id = (name: string) => `${base}-${name}`;
  return {
    title: id('title'),
    heading: id('heading'),
    plan: id('plan'),
    name: id('name'),
    email: id('email'),
    team: id('team'),
    team_slug: id('team-slug'),
    password: id('password'),
    password_confirmation: id('password-confirmation'),
    terms: id('terms'),
    marketing_consent: id('marketing-consent'),
  };
}

/**
 * Registration (docs/accounts.md "Screens", docs/adr/0044-the-api-contract.md "The API contract",
 * docs/billing.md "Flows", docs/accounts.md "Validation rules"): step 0 account details, step 1
 * plan, then `/confirmation`.
 *
 * The URL's `plan`, `coupon` and `invitation` parameters are read once and kept in the URL;
 * `plan` picks the starting plan, `coupon` and `invitation` are sent with the registration.
 * Field errors show for touched fields (docs/accounts.md "Validation rules"); Continue checks every
 * field, then asks `POST /if-mail-exists`. The server's 422 errors go on their fields, and an error
 * on plan, name, team, e-mail or password brings the user back to step 0 (docs/billing.md "Flows").
 * A paid plan takes the card, billing address and VAT id on step 1 (docs/accounts.md "Screens",
 * docs/billing.md "Flows"); a coupon the server calls invalid is not sent (docs/accounts.md
 * "Validation rules").
 *
 * The steps' state lives in hooks: the account form (`useAccountForm`), the plan choice
 * (`usePlanChoice`) and the payment (`usePayment`); `registrationFailure` says where a refusal
 * goes.
 *
 * @param partnerCampaign true on the partner-campaign path (docs/accounts.md "Screens", `PARTNER_CAMPAIGN_PATH`):
 *   the campaign's fixed coupon is described without its code and applied by the server; the
 *   URL's `coupon` is ignored there.
 */
export function RegisterPage({ partnerCampaign = false }: { partnerCampaign?: boolean } = {}) {
  useDocumentTitle('Create account');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const query = useMemo(
    () => ({
      plan: params.get('plan'),
      coupon: partnerCampaign ? PARTNER_COUPON_LOOKUP : params.get('coupon')?.trim() || undefined,
      invitation: params.get('invitation')?.trim() || undefined,
    }),
    [params, partnerCampaign],
  );
  const user = useAppStore((s) => s.user);
  const refreshSession = useAppStore((s) => s.refreshSession);

  const base = useId();
  const ids = pageIds(base);

  const [step, setStep] = useState<0 | 1>(0);
  const [notice, setNotice] = useState<RegistrationNotice | null>(null);
  const [registering, setRegistering] = useState(false);
  const [registered, setRegistered] = useState(false);
  const [focus, setFocus] = useState<{ target: FocusTarget } | null>(null);

  const account = useAccountForm();
  // The invited address goes into the e-mail field once, unless the user has typed in it before
  // the invitation answered (server data fills only an untouched field; they may still change it).
  const invitation = useInvitation(query.invitation, ({ email }) => account.offerEmail(email));
  const plan = usePlanChoice(query);
  const coupon = useCouponLookup(query.coupon);
  const payment = usePayment(base, plan.selectedPlan?.id, plan.paid);
  const checking = account.form.formState.isSubmitting;

  // Move focus after the render that shows the target (its error text, or the new step).
  useEffect(() => {
    if (!focus) return;
    const { target } = focus;
    const at = pageIds(base);
    const element =
      target === 'heading'
        ? document.getElementById(at.heading)
        : target === 'plan'
          ? // A radio group takes focus on its checked radio.
            (document.querySelector<HTMLElement>('input[name="plan"]:checked') ??
            document.getElementById(at.plan))
          : target === 'card'
            ? document.querySelector<HTMLElement>('.card-field')
            : isBillingField(target)
              ? document.getElementById(billingFieldIds(`${base}-billing`)[target])
              : document.getElementById(at[target]);
    element?.focus();
  }, [focus, base]);

  /** Puts a refusal on the fields and the notice, and takes the user where it can be fixed. */
  function showFailure(error: unknown, title: string) {
    const answer = isApiError(error) ? (error.errors ?? {}) : {};
    const failure = registrationFailure(error, step, title);
    // On step 0 the fields are on screen and take focus; from step 1 they come back first.
    applyServerErrors(account.form.setError, error, ACCOUNT_FIELDS, {
      formLevel: false,
      focus: step === 0,
    });
    plan.setErrors(answer.plan);
    payment.showErrors(error);
    setNotice(failure.notice);
    setStep(failure.step);
    if (failure.focus && !(step === 0 && isAccountField(failure.focus))) {
      setFocus({ target: failure.focus });
    }
  }

  const continueToPlan = submitWith(account.form, async (values) => {
    try {
      await checkEmailFree(values.email);
      setStep(1);
      setFocus({ target: 'heading' });
    } catch (error) {
      showFailure(error, 'We could not check your e-mail address');
    }
  });

  function onContinue(event: FormEvent<HTMLFormElement>) {
    setNotice(null);
    account.moveOn();
    // A refusal of the server the fields cannot check again (a common password) stays until
    // the field is changed.
    const refused = ACCOUNT_FIELDS.find(
      (f) => account.form.getFieldState(f).error?.type === 'server',
    );
    if (refused) {
      event.preventDefault();
      account.form.setFocus(refused);
      return;
    }
    continueToPlan(event);
  }

  /** Step 1's submit: a paid plan's billing fields are checked first (focus goes to the first). */
  function onCreate(event: FormEvent<HTMLFormElement>) {
    setNotice(null);
    if (plan.paid) {
      payment.submit(createAccount)(event);
      return;
    }
    event.preventDefault();
    void createAccount();
  }

  async function createAccount() {
    const { planList, selectedPlan } = plan;
    if (registering || !planList || !selectedPlan) return;
    setRegistering(true);
    try {
      // The card field shows why when it cannot give a card (docs/accounts.md "Error answers in the
      // SPA").
      const billingFields: RegistrationBilling = plan.paid ? await payment.collect() : {};
      const values = account.form.getValues();
      const team = values.team.trim();
      const form: RegistrationRequest & RegistrationBilling = {
        ...billingFields,
        name: values.name.trim(),
        email: values.email.trim(),
        team,
        team_slug: teamSlug(values.team_slug || values.team),
        password: values.password,
        password_confirmation: values.password_confirmation,
        terms: true,
        plan: selectedPlan.id,
        ...(values.marketing_consent ? { marketing_consent: true } : {}),
        ...(query.invitation ? { invitation: query.invitation } : {}),
        ...couponFields(query.coupon, coupon.state, partnerCampaign),
      };
      const redirect = await register(form, partnerCampaign);
      setRegistered(true);
      await refreshSession();
      const state: RegisteredState = { team, plan: selectedPlan.name };
      navigate(redirect, { state });
    } catch (error) {
      const paymentId = paymentIdOf(error);
      if (error instanceof CardNotReady) setFocus({ target: 'card' });
      else if (paymentId) {
        // docs/billing.md "Flows": the account exists and the first payment needs confirming (3-D
        // Secure).
        setRegistered(true);
        await refreshSession();
        navigate(paymentConfirmationPath(paymentId, '/confirmation'));
      } else showFailure(error, 'We could not create your account');
    } finally {
      setRegistering(false);
    }
  }

  return (
    <div className="container container--narrow stack">
      <WizardStrip current={step} />
      <section className="card auth-card" aria-labelledby={ids.title}>
        <div>
          <h1 id={ids.title} className="page-title">
            Create your account
          </h1>
          <p className="muted">
            {step === 0
              ? 'Your details and your company, then a plan.'
              : 'Pick a plan for your team. You can change it later.'}
          </p>
        </div>

        {user && !registered && step === 0 && (
          <Notice tone="info" title={`You are signed in as ${user.name}`}>
            Creating a new account signs you out of this one.
          </Notice>
        )}
        {notice && (
          <Notice tone={notice.tone} title={notice.title}>
            {notice.text}
          </Notice>
        )}
        {step === 0 && <InvitationNotice invitation={invitation} />}

        {step === 0 ? (
          <AccountStep
            ids={ids}
            headingId={ids.heading}
            account={account}
            pending={checking}
            onSubmit={onContinue}
          />
        ) : (
          <PlanStep
            headingId={ids.heading}
            planGroupId={ids.plan}
            planList={plan.planList}
            interval={plan.interval}
            selectedPlanId={plan.selectedPlanId}
            planErrors={plan.errors}
            unavailableRequest={plan.unavailableRequest}
            coupon={coupon}
            partnerCampaign={partnerCampaign}
            invitation={query.invitation}
            payment={payment.props}
            pending={registering}
            onInterval={plan.chooseInterval}
            onSelect={plan.choose}
            onBack={() => {
              setNotice(null);
              setStep(0);
              setFocus({ target: 'heading' });
            }}
            onSubmit={onCreate}
          />
        )}
      </section>
      <p className="muted text-center">
        Already have an account? <Link to="/login">Sign in</Link>
      </p>
    </div>
  );
}

/** Step 0's word on the URL's invitation: the team to join, or why the link is not valid. */
function InvitationNotice({ invitation }: { invitation: InvitationState }) {
  if (invitation.state === 'valid') {
    const { team, role, email } = invitation.invitation;
    return (
      <Notice tone="info" title={`Join ${team.name}`}>
        You were invited as {role === 'owner' ? 'an owner' : 'a member'}. Register with {email} to
        join when your account is ready.
      </Notice>
    );
  }
  if (invitation.state === 'invalid') {
    return (
      <Notice tone="error" title="Invitation not valid">
        {invitation.message} You can still create an account.
      </Notice>
    );
  }
  return null;
}

/** The partner-campaign registration page (docs/accounts.md "Screens"): registration with its fixed coupon. */
export function PartnerRegisterPage() {
  return <RegisterPage partnerCampaign />;
}
