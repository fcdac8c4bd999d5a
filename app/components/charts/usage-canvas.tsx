/**
 * The usage chart drawn by chart.js. Only ever loaded lazily in the browser (usage-chart.tsx), so
 * chart.js is a separate chunk fetched after the dashboard has rendered.
 */
import { BarController, BarElement, CategoryScale, Chart, LinearScale, Tooltip } from 'chart.js'
import { Bar } from 'react-chartjs-2'
import { useTranslation } from 'react-i18next'
import { useChartPalette } from './chart-theme.ts'
import { chartHeight, dayLabel, type UsageDay } from './usage-days.ts'

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip)

export default function UsageCanvas({ days, label }: { days: UsageDay[]; label: string }) {
  const { i18n } = useTranslation()
  const colours = useChartPalette()
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
