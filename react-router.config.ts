import type { Config } from '@react-router/dev/config'
import { buildDirectory } from './relay/config.ts'

export default {
  appDirectory: 'app',
  // BUILD_DIR lets several builds coexist on one machine (parallel test runs); default build/.
  buildDirectory: buildDirectory(),
  ssr: true,
  future: {
    // Middleware carries i18n, the session and the relay client into every loader and action.
    v8_middleware: true,
  },
} satisfies Config
