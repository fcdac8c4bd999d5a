/**
 * A short name for the device behind a user agent ("Chrome · Windows"), as the security page
 * lists sessions and sign-ins and the new-device mail names them. A rough reading of the common
 * browsers and systems is enough to tell one's own devices apart; anything else shows as unknown.
 */
const browsers: Array<[RegExp, string]> = [
  [/Edg(e|A|iOS)?\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/MicroMessenger\//, 'WeChat'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/Chrome\/|CriOS\/|Chromium\//, 'Chrome'],
  [/Safari\//, 'Safari'],
  [/^curl\//, 'curl'],
]

const systems: Array<[RegExp, string]> = [
  [/Windows/, 'Windows'],
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Android/, 'Android'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
]

/** null when neither the browser nor the system is recognised. */
export function deviceName(userAgent: string): string | null {
  const browser = browsers.find(([pattern]) => pattern.test(userAgent))?.[1]
  const system = systems.find(([pattern]) => pattern.test(userAgent))?.[1]
  return [browser, system].filter(Boolean).join(' · ') || null
}
