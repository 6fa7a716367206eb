import type { ComponentType } from 'react';
import { createBrowserRouter } from 'react-router-dom';
import { CASHIER_PATH } from '#shared/billing.ts';
import { onPaymentRequired } from './api/client.ts';
import { AppShell } from './components/AppShell.tsx';
import { PlanSettingsRedirect } from './features/billing/PlanSettingsRedirect.tsx';
import { BundleEditPage } from './pages/BundleEditPage.tsx';
import { ConfirmationPage } from './pages/ConfirmationPage.tsx';
import { CreateDesignPage } from './pages/CreateDesignPage.tsx';
import { DashboardPage } from './pages/DashboardPage.tsx';
import { DesignShowPage } from './pages/DesignShowPage.tsx';
import { HomePage } from './pages/HomePage.tsx';
import { LoginPage } from './pages/LoginPage.tsx';
import { NotFoundPage } from './pages/NotFoundPage.tsx';
import { OnboardingPage } from './pages/OnboardingPage.tsx';
import { ForgotPasswordPage, ResetPasswordPage } from './pages/PasswordResetPages.tsx';
import { RouteErrorPage } from './pages/RouteErrorPage.tsx';
import { StatusPage } from './pages/StatusPage.tsx';
import { TemplateDeletedPage } from './pages/TemplateDeletedPage.tsx';
import { TermsPage } from './pages/TermsPage.tsx';
import { VerifyEmailPage } from './pages/VerifyEmailPage.tsx';

/**
 * A page loaded on first visit: its module is a chunk of its own, so the pages most visitors
 * never open (the editor with fabric, the export screen, registration, settings and billing with
 * Stripe's React components) stay out of the bundle every page loads.
 */
function page<M extends Record<string, unknown>>(
  load: () => Promise<M>,
  name: keyof M & string,
): () => Promise<{ Component: ComponentType }> {
  return () => load().then((m) => ({ Component: m[name] as ComponentType }));
}

/**
 * The SPA's pages. Paths that are also API routes (`/login` is `POST /login`) are told apart
 * by method and headers (`isApiRequest` in `shared/routes.ts`), so a browser that opens
 * `/login` or `/register` gets this app.
 */
export const router = createBrowserRouter([
  {
    path: '/',
    element: <AppShell />,
    errorElement: <RouteErrorPage />,
    children: [
      { index: true, element: <HomePage /> },
      { path: 'status', element: <StatusPage /> },
      { path: 'login', element: <LoginPage /> },
      { path: 'register', lazy: page(() => import('./pages/RegisterPage.tsx'), 'RegisterPage') },
      // docs/accounts.md "Screens": the partner-campaign registration path (PARTNER_CAMPAIGN_PATH).
      {
        path: 'register/partner',
        lazy: page(() => import('./pages/RegisterPage.tsx'), 'PartnerRegisterPage'),
      },
      { path: 'confirmation', element: <ConfirmationPage /> },
      // docs/accounts.md "Terms of service": linked from registration's terms checkbox.
      { path: 'terms', element: <TermsPage /> },
      // A poll's vote page, opened by an e-mail's answer link (docs/polls.md "Voting").
      {
        path: 'poll',
        lazy: page(() => import('./features/polls/PollVotePage.tsx'), 'PollVotePage'),
      },
      { path: 'onboarding', element: <OnboardingPage /> },
      { path: 'password/reset', element: <ForgotPasswordPage /> },
      { path: 'password/reset/:token', element: <ResetPasswordPage /> },
      // The e-mailed confirmation link of an address (docs/security.md).
      { path: 'email/verify/:token', element: <VerifyEmailPage /> },
      { path: 'settings', lazy: page(() => import('./pages/SettingsPage.tsx'), 'SettingsPage') },
      {
        path: 'settings/companies/:teamId',
        lazy: page(() => import('./pages/TeamSettingsPage.tsx'), 'TeamSettingsPage'),
      },
      // docs/accounts.md "Screens": plan settings addresses open the subscription tab.
      { path: 'settings/subscription', element: <PlanSettingsRedirect /> },
      { path: 'settings/companies/:teamId/subscription', element: <PlanSettingsRedirect /> },
      // docs/accounts.md "Screens": the card-update page (?team_id=), `cardUpdatePath` in
      // shared/billing.ts.
      {
        path: 'settings/card-update',
        lazy: page(() => import('./pages/CardUpdatePage.tsx'), 'CardUpdatePage'),
      },
      // docs/accounts.md "Screens": the payment-confirmation page (3-D Secure after a subscribe or
      // switch).
      {
        path: `${CASHIER_PATH}/payment/:paymentId`,
        lazy: page(() => import('./pages/PaymentConfirmationPage.tsx'), 'PaymentConfirmationPage'),
      },
      { path: 'dashboard', element: <DashboardPage /> },
      { path: 'pic-snippet/create', element: <CreateDesignPage /> },
      // docs/adr/0019-design-api-shapes.md "Design API shapes": a template link opened in the
      // browser asks first.
      {
        path: 'pic-snippet/:id/createFromTemplate',
        lazy: page(() => import('./pages/CreateFromTemplatePage.tsx'), 'CreateFromTemplatePage'),
      },
      { path: 'pic-snippet/:id', element: <DesignShowPage /> },
      { path: 'template-bundle/:id/edit', element: <BundleEditPage /> },
      { path: 'image', element: <TemplateDeletedPage /> },
      {
        path: 'pic-snippet/:id/edit',
        lazy: page(() => import('./pages/EditorPage.tsx'), 'EditorPage'),
      },
      {
        path: 'pic-snippet/:id/export',
        lazy: page(() => import('./pages/ExportPage.tsx'), 'ExportPage'),
      },
      // docs/analytics.md "The report": the design's counts, charts and CSV (Recharts, a chunk of
      // its own).
      {
        path: 'pic-snippet/:id/analytics',
        lazy: page(() => import('./pages/DesignAnalyticsPage.tsx'), 'DesignAnalyticsPage'),
      },
      // docs/analytics.md "Campaigns": the team's campaigns and one campaign's designs added up.
      {
        path: 'campaigns',
        lazy: page(() => import('./pages/CampaignsPage.tsx'), 'CampaignsPage'),
      },
      {
        path: 'campaigns/report',
        lazy: page(() => import('./pages/CampaignReportPage.tsx'), 'CampaignReportPage'),
      },
      {
        path: 'spark/kiosk',
        lazy: page(() => import('./features/kiosk/KioskPage.tsx'), 'KioskPage'),
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);

// docs/accounts.md "Error answers in the SPA": a 402 (the plan does not allow it) goes to the
// subscription settings.
onPaymentRequired(() => void router.navigate('/settings#/subscription'));
