import type zh from '../zh/validation.ts'
import type { Messages } from '../types.ts'

export default {
  required: 'This field is required',
  fillAll: 'Please fill in all required fields',
  tooLong: 'Too long',
  number: 'Enter a number',
  wholeNumber: 'Enter a whole number',
  numberTooSmall: 'The number is too small',
  numberTooLarge: 'The number is too large',
  emailRequired: 'Please enter your e-mail address',
  emailInvalid: 'Please enter a valid e-mail address',
  emailFirst: 'Please enter your email address first',
  usernameRequired: 'Please enter your username or e-mail',
  usernameLength: 'Username must be 3–32 characters',
  usernameChars: 'Username may contain only letters, digits, underscores and hyphens',
  passwordRequired: 'Please enter your password',
  passwordLength: 'Password must be 8–128 characters',
  codeRequired: 'Please enter verification code',
  codeFormat: 'The code is 6 digits',
  secondFactorFormat: 'Enter a 6-digit code or a recovery code',
  confirmRequired: 'Please enter the password again',
  passwordsMismatch: 'Passwords do not match',
  inviteCodeFormat: 'Invalid invite code format',
  agreeRequired: 'Please read and agree to the Terms of Service and the Privacy Policy',
} satisfies Messages<typeof zh>
