import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import {
  DEFAULT_COUNTRY,
  PARTNER_COUPON_LOOKUP,
  paymentConfirmationPath,
  type RegistrationBilling,
} from '#shared/billing.ts';
import { GENERIC_ERROR_MESSAGE, isApiError, type FieldErrors } from '../api/client.ts';
import type { PlanInterval } from '../api/plans.ts';
import { checkEmailFree, register, type RegistrationRequest } from '../api/registration.ts';
import { Notice, type NoticeTone } from '../components/Notice.tsx';
import { WizardStrip } from '../components/WizardStrip.tsx';
import {
  ACCOUNT_FIELDS,
  EMPTY_ACCOUNT,
  checkAccount,
  isAccountField,
  teamSlug,
  type AccountField,
  type AccountValues,
} from '../features/registration/account.ts';
import { billingFieldIds } from '../features/billing/BillingAddressFields.tsx';
import {
  BILLING_FIELDS,
  EMPTY_BILLING,
  billingRequest,
  checkBillingDetails,
  isBillingField,
  type BillingDetails,
  type BillingField,
} from '../features/billing/billingDetails.ts';
import { CardNotReady, type CardCollector } from '../features/billing/CardField.tsx';
import { paymentIdOf } from '../features/billing/failure.ts';
import { useCouponLookup, useTaxPreview, useVisitorCountry } from '../features/billing/hooks.ts';
import { AccountStep, type AccountFieldIds } from '../features/registration/AccountStep.tsx';
import { PlanStep } from '../features/registration/PlanStep.tsx';
import { couponFields } from '../features/registration/coupon.ts';
import { defaultPlanChoice, isFree, plansFor } from '../features/registration/plans.ts';
import { useInvitation } from '../features/registration/useInvitation.ts';
import { usePlans } from '../features/registration/usePlans.ts';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { afterPress } from '../lib/afterPress.ts';
import { useAppStore } from '../state/store.ts';

interface FormNotice {
  tone: NoticeTone;
  title: string;
  text: string;
}

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
  };
}

/** Where focus goes after the next render: a field, the plans, the card, or a step's heading. */
type FocusTarget = AccountField | BillingField | 'plan' | 'card' | 'heading';

/**
 * Registration (spec 001 §2–5): step 0 account details, step 1 plan, then `/confirmation`.
 *
 * The URL's `plan`, `coupon` and `invitation` parameters are read once and kept in the URL;
 * `plan` picks the starting plan, `coupon` and `invitation` are sent with the registration.
 * Field errors show for touched fields (spec 001 §5); Continue checks every field, then asks
 * `POST /if-mail-exists`. The server's 422 errors go on their fields, and an error on plan,
 * name, team, e-mail or password brings the user back to step 0 (spec 001 §4). A paid plan
 * takes the card, billing address and VAT id on step 1 (spec 001 §2, §4); a coupon the server
 * calls invalid is not sent (§5).
 *
 * @param partnerCampaign true on the partner-campaign path (spec 001 §2, `PARTNER_CAMPAIGN_PATH`):
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
  const [values, setValues] = useState<AccountValues>(EMPTY_ACCOUNT);
  const [slugEdited, setSlugEdited] = useState(false);
  const [touched, setTouched] = useState<Partial<Record<AccountField, true>>>({});
  /** Set by the first Continue: every field then shows its problem. */
  const [movingOn, setMovingOn] = useState(false);
  const [serverErrors, setServerErrors] = useState<FieldErrors>({});
  const [notice, setNotice] = useState<FormNotice | null>(null);
  const [pending, setPending] = useState<'check' | 'register' | null>(null);
  const [registered, setRegistered] = useState(false);
  const [focus, setFocus] = useState<{ target: FocusTarget } | null>(null);

  // The invited address goes into the e-mail field once, unless the user has typed in it before
  // the invitation answered (server data fills only an untouched field; they may still change it).
  const emailTyped = useRef(false);
  const invitation = useInvitation(query.invitation, ({ email }) => {
    if (!emailTyped.current) setValues((v) => ({ ...v, email }));
  });

  const planList = usePlans();
  const defaults = useMemo(
    () => planList && defaultPlanChoice(planList.plans, query.plan, query.invitation !== undefined),
    [planList, query.plan, query.invitation],
  );
  const [pickedInterval, setPickedInterval] = useState<PlanInterval>();
  const [pickedPlanId, setPickedPlanId] = useState<string>();
  const interval = pickedInterval ?? defaults?.interval ?? 'monthly';
  const selectedPlanId = pickedPlanId ?? defaults?.planId;
  const selectedPlan = planList?.plans.find((p) => p.id === selectedPlanId);
  const paidPlan = selectedPlan && !isFree(selectedPlan) && selectedPlan.available;

  // Step 1's billing details, kept when the user goes back to step 0 (spec 001 §3).
  const visitorCountry = useVisitorCountry();
  const coupon = useCouponLookup(query.coupon);
  const [billing, setBilling] = useState<BillingDetails>(EMPTY_BILLING);
  const [billingTried, setBillingTried] = useState(false);
  const cardRef = useRef<CardCollector | null>(null);
  const billingIds = billingFieldIds(`${base}-billing`);
  const tax = useTaxPreview(
    billing,
    visitorCountry ?? DEFAULT_COUNTRY,
    selectedPlan?.id,
    paidPlan === true,
  );

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

  const clientErrors = checkAccount(values, movingOn);
  const shownErrors: Partial<Record<AccountField, readonly string[]>> = {};
  for (const field of ACCOUNT_FIELDS) {
    const server = serverErrors[field];
    const client = clientErrors[field];
    if (server) shownErrors[field] = server;
    else if (client && (touched[field] || movingOn)) shownErrors[field] = [client];
  }

  function change<F extends AccountField>(field: F, value: AccountValues[F]) {
    if (field === 'email') emailTyped.current = true;
    setValues((v) => {
      const next = { ...v, [field]: value };
      if (field === 'team' && !slugEdited) next.team_slug = teamSlug(String(value));
      return next;
    });
    // A hand-edited slug stops following the team name; clearing it resumes following.
    if (field === 'team_slug') setSlugEdited(value !== '');
    if (field === 'terms') setTouched((t) => ({ ...t, terms: true }));
    const clears: string[] = [field];
    if (field === 'team' && !slugEdited) clears.push('team_slug');
    if (field === 'password') clears.push('password_confirmation');
    if (clears.some((f) => serverErrors[f])) {
      setServerErrors((e) =>
        Object.fromEntries(Object.entries(e).filter(([f]) => !clears.includes(f))),
      );
    }
  }

  function blur(field: AccountField) {
    if (field === 'team_slug' && values.team_slug !== '') {
      setValues((v) => ({ ...v, team_slug: teamSlug(v.team_slug) }));
    }
    // Deferred past a press, so a field's error appearing does not move the control clicked.
    if (!touched[field]) afterPress(() => setTouched((t) => ({ ...t, [field]: true })));
  }

  async function continueToPlan() {
    if (pending) return;
    setNotice(null);
    setMovingOn(true);
    const problems = checkAccount(values, true);
    const first = ACCOUNT_FIELDS.find((f) => problems[f] || serverErrors[f]);
    if (first) {
      setFocus({ target: first });
      return;
    }
    setPending('check');
    try {
      await checkEmailFree(values.email.trim());
      setStep(1);
      setFocus({ target: 'heading' });
    } catch (error) {
      showFailure(error, 'We could not check your e-mail address');
    } finally {
      setPending(null);
    }
  }

  async function createAccount() {
    if (pending || !planList || !selectedPlan) return;
    setNotice(null);
    const fallbackCountry = visitorCountry ?? DEFAULT_COUNTRY;
    if (paidPlan) {
      setBillingTried(true);
      const missing = BILLING_FIELDS.find((f) => checkBillingDetails(billing)[f]);
      if (missing) {
        setFocus({ target: missing });
        return;
      }
    }
    if (serverErrors.stripe_payment_method) {
      setServerErrors(({ stripe_payment_method: _card, ...rest }) => rest);
    }
    setPending('register');
    try {
      let billingFields: RegistrationBilling = {};
      if (paidPlan) {
        // The card field shows why when it cannot give a card (spec 001 §8).
        const paymentMethod = await cardRef.current?.collect();
        if (!paymentMethod) throw new CardNotReady('The card form is not ready.');
        billingFields = {
          ...billingRequest(billing, fallbackCountry),
          stripe_payment_method: paymentMethod,
        };
      }
      const form: RegistrationRequest & RegistrationBilling = {
        ...billingFields,
        name: values.name.trim(),
        email: values.email.trim(),
        team: values.team.trim(),
        team_slug: teamSlug(values.team_slug || values.team),
        password: values.password,
        password_confirmation: values.password_confirmation,
        terms: true,
        plan: selectedPlan.id,
        ...(query.invitation ? { invitation: query.invitation } : {}),
        ...couponFields(query.coupon, coupon.state, partnerCampaign),
      };
      const redirect = await register(form, partnerCampaign);
      setRegistered(true);
      await refreshSession();
      const state: RegisteredState = { team: values.team.trim(), plan: selectedPlan.name };
      navigate(redirect, { state });
    } catch (error) {
      const paymentId = paymentIdOf(error);
      if (error instanceof CardNotReady) setFocus({ target: 'card' });
      else if (paymentId) {
        // Spec 001 §4: the account exists and the first payment needs confirming (3-D Secure).
        setRegistered(true);
        await refreshSession();
        navigate(paymentConfirmationPath(paymentId, '/confirmation'));
      } else showFailure(error, 'We could not create your account');
    } finally {
      setPending(null);
    }
  }

  /**
   * Spec 001 §8: the answer's field errors go on the fields; other field errors and answers
   * without any go in a notice. Spec 001 §4: errors on plan, name, team, e-mail or password
   * send the user back to step 0 (a plan error is named in the notice there and stays on the
   * plans); errors on the billing fields and the card keep step 1.
   */
  function showFailure(error: unknown, title: string) {
    if (!isApiError(error)) {
      console.error(error);
      setNotice({ tone: 'error', title, text: GENERIC_ERROR_MESSAGE });
      return;
    }
    const errors = error.errors ?? {};
    const firstAccount = ACCOUNT_FIELDS.find((f) => errors[f]);
    const firstBilling = BILLING_FIELDS.find((f) => errors[f]);
    const onStep1 = (f: string) => isBillingField(f) || f === 'stripe_payment_method';
    const others = Object.entries(errors)
      .filter(([f]) => !isAccountField(f) && f !== 'plan' && !onStep1(f))
      .flatMap(([, messages]) => messages);
    const placed = firstAccount ?? firstBilling ?? (errors.stripe_payment_method && 'card');
    if (placed || errors.plan) {
      setServerErrors((current) => ({ ...current, ...errors }));
      if (firstAccount || errors.plan) {
        if (step === 1) {
          setNotice({
            tone: 'error',
            title: 'Some details need attention',
            text: errors.plan
              ? `${errors.plan.join(' ')} Continue to choose another plan.`
              : 'Fix the fields marked below, then continue.',
          });
        }
        setStep(0);
        setFocus({ target: firstAccount ?? 'heading' });
      } else if (placed) {
        setFocus({ target: placed });
      }
      if (others.length > 0) setNotice({ tone: 'error', title, text: others.join(' ') });
      return;
    }
    setNotice({
      tone: error.status === 501 ? 'info' : 'error',
      title: error.status === 0 ? 'No connection' : title,
      text: [error.message, ...others].join(' '),
    });
  }

  function chooseInterval(next: PlanInterval) {
    setPickedInterval(next);
    // A paid plan of the other interval is no longer shown: fall back to the free plan.
    if (planList && selectedPlan && !plansFor(planList.plans, next).includes(selectedPlan)) {
      setPickedPlanId(planList.plans.find((p) => isFree(p) && p.available)?.id);
    }
  }

  function changeBilling(field: BillingField, value: string) {
    setBilling((b) => ({ ...b, [field]: value }));
    if (serverErrors[field]) setServerErrors(({ [field]: _cleared, ...rest }) => rest);
  }

  const billingErrors: Partial<Record<BillingField | 'stripe_payment_method', string[]>> = {
    ...(billingTried
      ? Object.fromEntries(Object.entries(checkBillingDetails(billing)).map(([f, m]) => [f, [m]]))
      : {}),
    ...Object.fromEntries(
      Object.entries(serverErrors).filter(
        ([f]) => isBillingField(f) || f === 'stripe_payment_method',
      ),
    ),
  };

  function choosePlan(planId: string) {
    setPickedPlanId(planId);
    if (serverErrors.plan) {
      setServerErrors(({ plan: _plan, ...rest }) => rest);
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
        {step === 0 && invitation.state === 'valid' && (
          <Notice tone="info" title={`Join ${invitation.invitation.team.name}`}>
            You were invited as {invitation.invitation.role === 'owner' ? 'an owner' : 'a member'}.
            Register with {invitation.invitation.email} to join when your account is ready.
          </Notice>
        )}
        {step === 0 && invitation.state === 'invalid' && (
          <Notice tone="error" title="Invitation not valid">
            {invitation.message} You can still create an account.
          </Notice>
        )}

        {step === 0 ? (
          <AccountStep
            ids={ids}
            headingId={ids.heading}
            values={values}
            errors={shownErrors}
            pending={pending === 'check'}
            onChange={change}
            onBlur={blur}
            onSubmit={() => void continueToPlan()}
          />
        ) : (
          <PlanStep
            headingId={ids.heading}
            planGroupId={ids.plan}
            planList={planList}
            interval={interval}
            selectedPlanId={selectedPlanId}
            planErrors={serverErrors.plan}
            unavailableRequest={defaults?.unavailableRequest}
            coupon={coupon}
            partnerCampaign={partnerCampaign}
            invitation={query.invitation}
            payment={{
              ids: billingIds,
              values: billing,
              country: visitorCountry,
              errors: billingErrors,
              tax,
              cardRef,
              onChange: changeBilling,
            }}
            pending={pending === 'register'}
            onInterval={chooseInterval}
            onSelect={choosePlan}
            onBack={() => {
              setNotice(null);
              setStep(0);
              setFocus({ target: 'heading' });
            }}
            onSubmit={() => void createAccount()}
          />
        )}
      </section>
      <p className="muted text-center">
        Already have an account? <Link to="/login">Sign in</Link>
      </p>
    </div>
  );
}

/** The partner-campaign registration page (spec 001 §2): registration with its fixed coupon. */
export function PartnerRegisterPage() {
  return <RegisterPage partnerCampaign />;
}
