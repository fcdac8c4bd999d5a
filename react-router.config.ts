import type { Config } from '@react-router/dev/config'

export default {
  appDirectory: 'app',
  ssr: true,
  future: {
    // Middleware carries i18n, the session and the relay client into every loader and action.
    v8_middleware: true,
  },
} satisfies Config
