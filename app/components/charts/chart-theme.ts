/**
 * The charts' colours. Canvas colours cannot follow Tailwind's `dark:` classes, so each theme has
 * its palette, and a chart follows the theme the page shows.
 */
import { useEffect, useState } from 'react'

export const palettes = {
  light: { bar: '#6366f1', hover: '#4f46e5', ticks: '#71717a', grid: '#e4e4e7' },
  dark: { bar: '#818cf8', hover: '#a5b4fc', ticks: '#a1a1aa', grid: '#27272a' },
}

/** The theme as the page shows it: the `data-theme` the server wrote, "system" following the OS. */
function currentTheme(): keyof typeof palettes {
  const chosen = document.documentElement.dataset.theme
  if (chosen === 'dark' || chosen === 'light') return chosen
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'
}

/** The palette of the theme shown; a "system" theme changes with the OS, the other two through a page load. */
export function useChartPalette() {
  const [theme, setTheme] = useState(currentTheme)
  useEffect(() => {
    const query = window.matchMedia('(prefers-color-scheme: dark)')
    const update = () => setTheme(currentTheme())
    query.addEventListener('change', update)
    return () => query.removeEventListener('change', update)
  }, [])
  return palettes[theme]
}
