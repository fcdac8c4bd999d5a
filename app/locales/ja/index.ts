/**
 * The namespaces every page may need, downloaded by the browser for its language; add a
 * namespace here and in the other two languages. Page-only copy lives in app/locales/index.ts.
 */
import auth from './auth.ts'
import common from './common.ts'
import errors from './errors.ts'
import oauth from './oauth.ts'
import validation from './validation.ts'
import apiKeys from './api-keys.ts'
import referral from './referral.ts'
import dashboard from './dashboard.ts'
import subscription from './subscription.ts'
import points from './points.ts'
import tickets from './tickets.ts'
import profile from './profile.ts'
import usage from './usage.ts'
import notifications from './notifications.ts'

export default { common, auth, errors, oauth, validation, dashboard, subscription, points, apiKeys, referral, tickets, profile, usage, notifications }
