/** The breakdown chart drawn by chart.js; only ever loaded lazily in the browser (breakdown-chart.tsx). */
import { BarController, BarElement, CategoryScale, Chart, LinearScale, Tooltip } from 'chart.js'
import { Bar } from 'react-chartjs-2'
import { useTranslation } from 'react-i18next'
import { useChartPalette } from './chart-theme.ts'
import { numberFormat } from '#app/utils/intl-formats.ts'

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip)

export interface BreakdownItem {
  name: string
  value: number
}

export default function BreakdownCanvas({ items, label }: { items: BreakdownItem[]; label: string }) {
  const { i18n } = useTranslation()
  const colours = useChartPalette()
  const numbers = numberFormat(i18n.language)
  return (
    <div className="relative" style={{ height: `${Math.max(2, items.length) * 2 + 1}rem` }} data-testid="breakdown-canvas">
      <Bar
        role="img"
        aria-label={label}
        data={{
          // A name's parts on lines of their own ("anthropic", "host", "…ab12"): a phone has no room for one long line.
          labels: items.map((item) => item.name.split(' · ')),
          datasets: [{ label, data: items.map((item) => item.value), backgroundColor: colours.bar, hoverBackgroundColor: colours.hover, borderRadius: 4, maxBarThickness: 18 }],
        }}
        options={{
          indexAxis: 'y',
          responsive: true,
          maintainAspectRatio: false,
          plugins: {
            legend: { display: false },
            tooltip: { callbacks: { label: (item) => `${label}: ${numbers.format(item.parsed.x ?? 0)}` } },
          },
          scales: {
            y: { grid: { display: false }, ticks: { color: colours.ticks }, border: { color: colours.grid } },
            x: {
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
