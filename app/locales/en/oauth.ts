import type zh from '../zh/oauth.ts'
import type { Messages } from '../types.ts'

export default {
  scopes: {
    profile: { title: 'Basic account info', body: 'See your username, e-mail and account type' },
    api: { title: 'Use of API services', body: 'Call the model API as you, spending your points' },
    billing: { title: 'Managing subscription and points', body: 'See and manage your package and points' },
  },
  client: {
    firstParty: 'Official app',
    thirdParty: 'Third-party app',
  },
  consent: {
    oauthTitle: 'Authorise an app',
    ssoTitle: 'Single sign-on',
    wantsAccess: '<client>{{client}}</client> wants to access your account',
    ssoWantsAccess: '<client>{{client}}</client> wants to sign you in with your account',
    permissions: 'If you authorise it, this app will be able to:',
    signedInAs: 'Signed in as <user>{{username}}</user>',
    redirectNote: 'Whether you authorise or deny, you will be taken back to {{origin}}',
    trustNote: 'Only authorise apps you trust. Changing your password ends every authorisation.',
    authorize: 'Authorize',
    deny: 'Deny',
  },
  invalid: {
    title: 'This authorisation request cannot be completed',
    body: 'To protect your account we will not send you back to the app that asked. Go back to it and try again, or contact its developer.',
    request: 'The request lacks a required parameter or has one in the wrong format',
    notSso: 'This app is not an official app and cannot use single sign-on',
    dashboard: 'Go to the dashboard',
  },
  device: {
    title: 'Device authorisation',
    subtitle: 'Enter the 8-character code your command-line tool or other device shows to connect it to your account',
    code: 'Device code',
    codeHint: '8 letters or digits, e.g. ABCD-2345; the hyphen is optional, any case',
    codeRequired: 'Please enter the device code',
    codeFormat: 'The device code is 8 letters or digits',
    verify: 'Verify',
    confirmSubtitle: 'Check that your device shows the code below before you decide',
    wantsAccess: '<client>{{client}}</client> wants to access your account',
    warning: 'Authorise only if you yourself just started signing in on your own device and it shows the code above. If someone sent you this code, deny.',
    expiresIn_one: 'This code expires within {{count}} minute',
    expiresIn_other: 'This code expires within {{count}} minutes',
    authorize: 'Authorize',
    deny: 'Deny',
    another: 'Enter a different code',
    approvedTitle: 'Device authorised',
    approvedBody: 'You can close this page and carry on on your device.',
    deniedTitle: 'Authorisation denied',
    deniedBody: 'The device will not get access to your account.',
  },
  toast: {
    deviceAuthorized: 'Device code authorised',
    deviceDenied: 'You denied the device’s request',
  },
} satisfies Messages<typeof zh>
