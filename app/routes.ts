import { index, layout, route, type RouteConfig } from '@react-router/dev/routes'

export default [
  layout('routes/layouts/public.tsx', [
    index('routes/home/route.tsx'),
    route('privacy', 'routes/legal.tsx', { id: 'privacy' }),
    route('terms', 'routes/legal.tsx', { id: 'terms' }),
    route('pricing', 'routes/pricing.tsx'),
    route('status', 'routes/status.tsx'),
    // docs/product.md: any unmatched path shows Home.
    route('*', 'routes/home/route.tsx', { id: 'routes/catch-all' }),
  ]),
  layout('routes/layouts/auth.tsx', [
    route('auth/login', 'routes/auth/login.tsx'),
    route('auth/register', 'routes/auth/register.tsx'),
    route('auth/forgot-password', 'routes/auth/forgot-password.tsx'),
    route('auth/oauth-authorize', 'routes/auth/oauth-authorize.tsx'),
    route('auth/sso-authorize', 'routes/auth/oauth-authorize.tsx', { id: 'routes/auth/sso-authorize' }),
    route('auth/device-code', 'routes/auth/device-code.tsx'),
  ]),
  layout('routes/layouts/app.tsx', [
    route('dashboard', 'routes/dashboard.tsx'),
    route('subscription', 'routes/subscription/route.tsx'),
    route('points', 'routes/points.tsx'),
    route('usage', 'routes/usage.tsx'),
    // A resource route: the usage log as a CSV download.
    route('usage/export', 'routes/usage-export.ts'),
    route('usage/:id', 'routes/usage-call.tsx'),
    route('tickets', 'routes/tickets/index.tsx'),
    route('tickets/create', 'routes/tickets/create.tsx'),
    route('tickets/:id', 'routes/tickets/detail.tsx'),
    route('api-keys', 'routes/api-keys.tsx'),
    route('referral', 'routes/referral.tsx'),
    route('profile', 'routes/profile.tsx'),
  ]),
  // The operator console (docs/decisions/115): admins only; its layout turns anyone else away with a 404.
  layout('routes/admin/layout.tsx', [
    route('admin', 'routes/admin/index.tsx'),
    route('admin/tickets', 'routes/admin/tickets.tsx'),
    route('admin/tickets/:id', 'routes/admin/ticket.tsx'),
    route('admin/users', 'routes/admin/users.tsx'),
    route('admin/users/:id', 'routes/admin/user.tsx'),
    route('admin/codes', 'routes/admin/codes.tsx'),
    route('admin/audit', 'routes/admin/audit.tsx'),
    // The catalogue (docs/decisions/131).
    route('admin/packages', 'routes/admin/packages.tsx'),
    route('admin/packages/:id', 'routes/admin/package.tsx'),
    route('admin/teams', 'routes/admin/teams.tsx'),
    route('admin/teams/:id', 'routes/admin/team.tsx'),
    route('admin/resources', 'routes/admin/resources.tsx'),
    route('admin/referral', 'routes/admin/referral.tsx'),
    route('admin/oauth-clients', 'routes/admin/oauth-clients.tsx'),
    route('admin/*', 'routes/admin/not-found.tsx'),
  ]),
  route('auth/logout', 'routes/auth/logout.ts'),
  route('resources/theme', 'routes/resources/theme.ts'),
  route('resources/locale', 'routes/resources/locale.ts'),
  route('resources/session', 'routes/resources/session.ts'),
  route('resources/health', 'routes/resources/health.ts'),
] satisfies RouteConfig
