/**
 * The usage chart drawn by chart.js. Only ever loaded lazily in the browser (usage-chart.tsx), so
 * chart.js is a separate chunk fetched after the dashboard has rendered.
 */
import { BarController, BarElement, CategoryScale, Chart, LinearScale, Tooltip } from 'chart.js'
import { useEffect, useState } from 'react'
import { Bar } from 'react-chartjs-2'
import { useTranslation } from 'react-i18next'
import { chartHeight, dayLabel, type UsageDay } from './usage-days.ts'

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip)

/** Canvas colours cannot follow Tailwind's `dark:` classes, so each theme has its palette. */
const palettes = {
  light: { bar: '#6366f1', hover: '#4f46e5', ticks: '#71717a', grid: '#e4e4e7' },
  dark: { bar: '#818cf8', hover: '#a5b4fc', ticks: '#a1a1aa', grid: '#27272a' },
}

/** The theme as the page shows it: the `data-theme` the server wrote, "system" following the OS. */
function currentTheme(): keyof typeof palettes {
  const chosen = document.documentElement.dataset.theme
  if (chosen === 'dark' || chosen === 'light') return chosen
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'
}

export default function UsageCanvas({ days, label }: { days: UsageDay[]; label: string }) {
  const { i18n } = useTranslation()
  const [theme, setTheme] = useState(currentTheme)
  useEffect(() => {
    // A "system" theme changes with the OS; the other two change through a page load.
    const query = window.matchMedia('(prefers-color-scheme: dark)')
    const update = () => setTheme(currentTheme())
    query.addEventListener('change', update)
    return () => query.removeEventListener('change', update)
  }, [])
  const colours = palettes[theme]
  const numbers = new Intl.NumberFormat(i18n.language)
  return (
    <div className={`relative ${chartHeight}`} data-testid="usage-canvas">
      <Bar
        role="img"
        aria-label={label}
        data={{
          labels: days.map((d) => dayLabel(d.date, i18n.language)),
          datasets: [
            {
              label,
              data: days.map((d) => d.points),
              backgroundColor: colours.bar,
              hoverBackgroundColor: colours.hover,
              borderRadius: 6,
              maxBarThickness: 40,
            },
          ],
        }}
        options={{
          responsive: true,
          maintainAspectRatio: false,
          plugins: {
            legend: { display: false },
            tooltip: { callbacks: { label: (item) => `${label}: ${numbers.format(item.parsed.y ?? 0)}` } },
          },
          scales: {
            x: { grid: { display: false }, ticks: { color: colours.ticks }, border: { color: colours.grid } },
            y: {
              beginAtZero: true,
              ticks: { color: colours.ticks, precision: 0, callback: (value) => numbers.format(Number(value)) },
              grid: { color: colours.grid },
              border: { display: false },
            },
          },
        }}
      />
    </div>
  )
}
