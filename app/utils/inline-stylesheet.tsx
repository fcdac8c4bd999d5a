/**
 * The portal's one stylesheet, inlined in the document's head so the first paint waits for no
 * request of its own (docs/decisions/030-first-paint-and-charts.md). The server hands the
 * text down from entry.server; the browser, hydrating, reads it back from the element it
 * received, so the client bundle never carries the CSS and hydration finds the same text.
 */
import { createContext, useContext } from 'react'

const StylesheetContext = createContext<string | null>(null)

export const StylesheetProvider = StylesheetContext.Provider

const elementId = 'app-css'

export function InlineStylesheet() {
  const css = useContext(StylesheetContext) ?? (typeof document === 'undefined' ? null : (document.getElementById(elementId)?.textContent ?? null))
  // The dev server (no provider, no element) links the stylesheet instead, for hot reload.
  if (css === null) return null
  return <style id={elementId} dangerouslySetInnerHTML={{ __html: css }} suppressHydrationWarning />
}
