import { brandName } from '#relay/contract/brand.ts'
import type zh from '../zh/common.ts'
import type { Messages } from '../types.ts'

export default {
  brand: brandName.en,
  nav: {
    label: 'Main navigation',
    menu: 'Menu',
    home: 'Home',
    dashboard: 'Dashboard',
    subscription: 'Subscription',
    points: 'Points',
    tickets: 'Tickets',
    apiKeys: 'API keys',
    referral: 'Referral',
    profile: 'Profile',
    security: 'Security',
    logout: 'Log out',
    login: 'Sign in',
    register: 'Sign up',
  },
  viewAs: { banner: 'Viewing as {{name}} (read-only)', exit: 'Exit view', ended: 'The view as {{name}} has ended' },
  settings: {
    title: 'Settings',
    language: 'Language',
    theme: 'Theme',
    themes: { light: 'Light', dark: 'Dark', system: 'System' },
  },
  footer: {
    label: 'Footer',
    copyright: '© {{year}} SwiftRelay · pure pass-through, no conversation content stored',
    privacy: 'Privacy policy',
    terms: 'Terms of service',
    pricing: 'Pricing',
    status: 'Status',
    apiDocs: 'API docs',
    support: 'Support',
  },
  userType: { normal: 'Standard', vip: 'VIP', team: 'Team', admin: 'Admin' },
  toast: {
    close: 'Close',
    loggedIn: 'Signed in',
    loggedOut: 'Signed out',
    registeredAndLoggedIn: 'Registration successful, you are signed in',
    codeSent: 'Verification code sent, please check your e-mail',
    passwordReset: 'Password reset, please sign in with your new password',
    copied: 'Copied',
    copyFailed: 'Copy failed, please copy manually',
  },
  errorPage: {
    retry: 'Try again',
    notFound: { title: 'Page not found', body: 'The page you are looking for does not exist or has been removed.' },
    slow: {
      title: 'The service is slow right now',
      body: 'The relay service is answering too slowly for this page to load in time. Please try again shortly; you are still signed in.',
    },
    unavailable: {
      title: 'Service temporarily unavailable',
      body: 'We cannot reach the relay service right now. Please try again shortly; you are still signed in.',
    },
    badRequest: { title: 'This request cannot be handled', body: 'The request had a form, method or address we cannot accept. Go back and try again.' },
    unexpected: { title: 'Something went wrong', body: 'An unexpected error occurred. Please try again later.' },
  },
  auth: { tagline: 'A fast, stable API relay for Claude Code and other command-line clients' },
} satisfies Messages<typeof zh>
