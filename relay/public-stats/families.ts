/**
 * The family a model's calls are counted under on the status page: `claude-sonnet-4-5-20250929` →
 * `claude-sonnet`, `gemini-3.1-pro-preview` → `gemini-pro`, `gpt-4o-mini-2024-07-18` → `gpt-4o-mini`. A family is what a reader recognises
 * and what shares providers and prices; versions within it come and go too fast for a public page.
 */
const claudeTier = /^claude-(?:[\d.-]+-)?(opus|sonnet|haiku)\b/
const geminiTier = /^gemini-[\d.]+-(pro|flash-lite|flash)\b/

export function modelFamily(model: string): string {
  const id = model.toLowerCase().trim()
  const claude = claudeTier.exec(id)
  if (claude) return `claude-${claude[1]}`
  const gemini = geminiTier.exec(id)
  if (gemini) return `gemini-${gemini[1]}`
  // Anything else: the name without a date suffix, as the price table reads it (points/model-costs.ts).
  return id.replace(/-\d{8}$|-\d{4}-\d{2}-\d{2}$/, '').slice(0, 64)
}
