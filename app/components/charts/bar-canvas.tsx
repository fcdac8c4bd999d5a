/**
 * The bar chart drawn by chart.js. Only ever loaded lazily in the browser (bar-chart.tsx), so
 * chart.js is a separate chunk fetched after the page has rendered.
 */
import { BarController, BarElement, CategoryScale, Chart, LinearScale, Tooltip } from 'chart.js'
import { Bar } from 'react-chartjs-2'
import { useTranslation } from 'react-i18next'
import { useChartPalette } from './chart-theme.ts'
import { chartHeight, chartNumbers, type ChartBar, type ChartUnit } from './bars.ts'

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip)

export default function BarCanvas({ bars, label, unit }: { bars: ChartBar[]; label: string; unit: ChartUnit }) {
  const { i18n } = useTranslation()
  const colours = useChartPalette()
  const numbers = chartNumbers(i18n.language, unit)
  return (
    <div className={`relative ${chartHeight}`} data-testid="chart-canvas">
      <Bar
        role="img"
        aria-label={label}
        data={{
          labels: bars.map((bar) => bar.label),
          datasets: [
            {
              label,
              data: bars.map((bar) => bar.value),
              backgroundColor: colours.bar,
              hoverBackgroundColor: colours.hover,
              borderRadius: bars.length > 12 ? 2 : 6,
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
            x: { grid: { display: false }, ticks: { color: colours.ticks, maxRotation: 0, autoSkipPadding: 8 }, border: { color: colours.grid } },
            y: {
              beginAtZero: true,
              ticks: { color: colours.ticks, precision: unit === 'share' ? undefined : 0, callback: (value) => numbers.format(Number(value)) },
              grid: { color: colours.grid },
              border: { display: false },
            },
          },
        }}
      />
    </div>
  )
}
