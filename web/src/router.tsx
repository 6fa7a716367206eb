import { createBrowserRouter } from 'react-router-dom';
import { CASHIER_PATH } from '#shared/billing.ts';
import { onPaymentRequired } from './api/client.ts';
import { AppShell } from './components/AppShell.tsx';
import { PlanSettingsRedirect } from './features/billing/PlanSettingsRedirect.tsx';
import { BundleEditPage } from './pages/BundleEditPage.tsx';
import { CardUpdatePage } from './pages/CardUpdatePage.tsx';
import { ConfirmationPage } from './pages/ConfirmationPage.tsx';
import { CreateDesignPage } from './pages/CreateDesignPage.tsx';
import { DashboardPage } from './pages/DashboardPage.tsx';
import { DesignShowPage } from './pages/DesignShowPage.tsx';
import { HomePage } from './pages/HomePage.tsx';
import { LoginPage } from './pages/LoginPage.tsx';
import { NotFoundPage } from './pages/NotFoundPage.tsx';
import { OnboardingPage } from './pages/OnboardingPage.tsx';
import { PaymentConfirmationPage } from './pages/PaymentConfirmationPage.tsx';
import { ForgotPasswordPage, ResetPasswordPage } from './pages/PasswordResetPages.tsx';
import { RegisterPage } from './pages/RegisterPage.tsx';
import { RouteErrorPage } from './pages/RouteErrorPage.tsx';
import { SettingsPage } from './pages/SettingsPage.tsx';
import { StatusPage } from './pages/StatusPage.tsx';
import { TeamSettingsPage } from './pages/TeamSettingsPage.tsx';
import { TemplateDeletedPage } from './pages/TemplateDeletedPage.tsx';

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
      { path: 'register', element: <RegisterPage /> },
      { path: 'confirmation', element: <ConfirmationPage /> },
      { path: 'onboarding', element: <OnboardingPage /> },
      { path: 'password/reset', element: <ForgotPasswordPage /> },
      { path: 'password/reset/:token', element: <ResetPasswordPage /> },
      { path: 'settings', element: <SettingsPage /> },
      { path: 'settings/companies/:teamId', element: <TeamSettingsPage /> },
      // Spec 001 §2: plan settings addresses open the subscription tab.
      { path: 'settings/subscription', element: <PlanSettingsRedirect /> },
      { path: 'settings/companies/:teamId/subscription', element: <PlanSettingsRedirect /> },
      // Spec 001 §2: the card-update page (?team_id=), `cardUpdatePath` in shared/billing.ts.
      { path: 'settings/card-update', element: <CardUpdatePage /> },
      // Spec 001 §2: the payment-confirmation page (3-D Secure after a subscribe or switch).
      { path: `${CASHIER_PATH}/payment/:paymentId`, element: <PaymentConfirmationPage /> },
      { path: 'dashboard', element: <DashboardPage /> },
      { path: 'pic-snippet/create', element: <CreateDesignPage /> },
      { path: 'pic-snippet/:id', element: <DesignShowPage /> },
      { path: 'template-bundle/:id/edit', element: <BundleEditPage /> },
      { path: 'image', element: <TemplateDeletedPage /> },
      {
        path: 'pic-snippet/:id/edit',
        lazy: () => import('./pages/EditorPage.tsx').then((m) => ({ Component: m.EditorPage })),
      },
      {
        path: 'pic-snippet/:id/export',
        lazy: () => import('./pages/ExportPage.tsx').then((m) => ({ Component: m.ExportPage })),
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);

// Spec 001 §8: a 402 (the plan does not allow it) goes to the subscription settings.
onPaymentRequired(() => void router.navigate('/settings#/subscription'));
