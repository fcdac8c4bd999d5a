import type zh from '../zh/notifications.ts'
import type { Messages } from '../types.ts'

export default {
  title: 'Mail notifications',
  subtitle: 'Choose what we tell you about by e-mail. Mails are written in the language of your latest sign-in.',
  link: 'Mail notification settings',
  kinds: {
    title: 'What to mail',
    balance_low: 'Points balance below your threshold',
    balance_lowHint: 'One mail each time the balance falls below it.',
    package_expiry: 'Package ending soon, and ended',
    package_expiryHint: 'One mail three days before the end, one at the end.',
    ticket_reply: 'A reply to your ticket',
    ticket_replyHint: 'When support answers one of your tickets.',
    new_sign_in: 'A sign-in from a new device',
    new_sign_inHint: 'When someone signs in from a browser or network not seen before.',
  },
  threshold: 'Balance threshold (points)',
  thresholdHint: 'Leave empty for no balance mail.',
  thresholdInvalid: 'Enter a whole number from 1 to 100000000',
  submit: 'Save settings',
  saved: 'Notification settings saved',
  failed: 'Could not save, please try again',
  back: 'Back to profile',
  unsubscribe: {
    title: 'Stop mail notifications',
    confirm: 'Stop sending “{{kind}}” mails to {{email}}?',
    off: '“{{kind}}” mails to {{email}} are stopped.',
    alreadyOff: '“{{kind}}” mails to {{email}} were already stopped.',
    submit: 'Stop these mails',
    invalid: 'This unsubscribe link is not valid. Sign in and change your mail notification settings instead.',
    manage: 'You can turn them back on in your mail notification settings at any time.',
  },
  announcements: {
    label: 'Announcement',
    dismiss: 'Dismiss announcement',
    levels: { info: 'Info', warning: 'Warning', critical: 'Critical' },
    dismissed: 'Announcement dismissed',
    more: '{{count}} more announcements',
  },
} satisfies Messages<typeof zh>
