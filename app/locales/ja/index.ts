/** Every namespace of this language; add a namespace here and in the other two languages. */
import auth from './auth.ts'
import common from './common.ts'
import errors from './errors.ts'
import validation from './validation.ts'
import apiKeys from './api-keys.ts'
import legal from './legal.ts'
import marketing from './marketing.ts'
import dashboard from './dashboard.ts'
import subscription from './subscription.ts'
import points from './points.ts'

export default { common, auth, errors, validation, legal, marketing, dashboard, subscription, points, apiKeys }
