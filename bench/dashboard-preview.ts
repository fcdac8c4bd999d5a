/**
 * `npm run screenshots:dashboard`: the shipped Grafana dashboard (deploy/grafana/relay.json) as
 * the README shows it, dark and light, in docs/screenshots/. Grafana itself is neither on npm nor
 * in Debian's archive, so its panels are drawn here from their own queries: the production server
 * (run `npm run build` first) relays two minutes of varied calls from a loopback fake provider —
 * answered, streamed, failed, cut and refused, and a provider failing until its circuit opens and
 * then recovering — while Debian's Prometheus scrapes it every second; each panel's PromQL is then
 * read from Prometheus's HTTP API and drawn with chart.js at its `gridPos`, in Debian's Chromium.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { chromium } from "playwright-core";
import { createTestDatabase } from "../tests/fixtures/databases.ts";
import { startFakeProvider } from "../tests/fixtures/fake-provider.ts";
import { startPrometheus } from "../tests/fixtures/prometheus.ts";
import {
  seedCustomer,
  serveModel,
  startProductionServer,
} from "../tests/fixtures/production-server.ts";
import { elapse } from "../tests/fixtures/time.ts";

interface Panel {
  type: "stat" | "timeseries";
  title: string;
  fieldConfig?: { defaults?: { unit?: string } };
  targets: { expr: string; legendFormat?: string }[];
  gridPos: { x: number; y: number; w: number; h: number };
}
interface Series {
  name: string;
  points: [number, number][];
}

const token = "dashboard-preview-token-0123456789";
const trafficMs = Number(process.env.TRAFFIC_MS ?? 120_000);
const dashboard = JSON.parse(
  readFileSync("deploy/grafana/relay.json", "utf8"),
) as { title: string; panels: Panel[] };
const models = [
  "claude-sonnet-4-5",
  "claude-haiku-4-5",
  "claude-opus-4-1",
] as const;

const database = await createTestDatabase("sqlite");
const db = database.open();
const provider = await startFakeProvider();
// Serves the third model alone: it fails for a while, so its circuit opens, then recovers.
const flaky = await startFakeProvider();
const server = await startProductionServer(database, {
  METRICS_TOKEN: token,
  PROVIDER_BREAKER_FAILURES: "3",
  PROVIDER_BREAKER_COOLDOWN_MS: "15000",
});
const prometheus = await startPrometheus(`127.0.0.1:${server.port}`, token);
try {
  await serveModel(db, models[0], provider.url);
  await serveModel(db, models[1], provider.url);
  await serveModel(db, models[2], flaky.url);
  const customer = await seedCustomer(server, db, 100_000_000);
  const poor = await seedCustomer(server, db, 1);

  const call = (key: string, model: string, stream: boolean) =>
    fetch(`${server.url}/v1/messages`, {
      method: "POST",
      headers: {
        "x-api-key": key,
        "anthropic-version": "2023-06-01",
        "content-type": "application/json",
      },
      body: JSON.stringify({
        model,
        max_tokens: 256,
        stream,
        messages: [{ role: "user", content: "hello" }],
      }),
    })
      .then((answer) => answer.arrayBuffer())
      // A cut stream ends in an error: it is one of the outcomes shown.
      .catch(() => null);

  const started = Date.now();
  flaky.behaviour = { kind: "fail", status: 503 };
  const worker = async (n: number) => {
    for (let i = 0; Date.now() - started < trafficMs; i++) {
      const roll = (i * 7 + n * 13) % 20;
      if (Date.now() - started > trafficMs / 2)
        flaky.behaviour = { kind: "answer" };
      if (roll === 0) provider.queue({ kind: "cut", afterEvents: 4 });
      if (roll === 1) provider.queue({ kind: "fail", status: 400 });
      if (roll < 12)
        provider.queue({
          kind: "paced",
          events: 8 + roll,
          everyMs: 40 + 10 * n,
        });
      const model =
        roll < 12
          ? models[0]
          : roll < 16
            ? models[1]
            : roll < 18
              ? models[2]
              : "claude-unpriced-preview";
      await call(
        roll === 19 ? poor.key : customer.key,
        roll === 19 ? models[1] : model,
        roll % 2 === 0,
      );
      if (i % 5 === 0)
        await fetch(`${server.url}/pricing`).then((page) => page.arrayBuffer());
    }
  };
  await Promise.all(Array.from({ length: 6 }, (_, n) => worker(n)));
  // Two more scrapes, so the last calls are in.
  await elapse(2500);

  const [start, end] = [
    Math.floor(started / 1000),
    Math.ceil(Date.now() / 1000),
  ];
  const seriesOf = async ({
    expr,
    legendFormat,
  }: Panel["targets"][number]): Promise<Series[]> => {
    const query = new URLSearchParams({
      query: expr,
      start: String(start),
      end: String(end),
      step: "2",
    });
    const answer = (await (
      await fetch(`${prometheus.url}/api/v1/query_range?${query}`)
    ).json()) as {
      data: {
        result: {
          metric: Record<string, string>;
          values: [number, string][];
        }[];
      };
    };
    return answer.data.result.map(({ metric, values }) => ({
      name: (legendFormat ?? expr).replace(
        /\{\{\s*(\w+)\s*\}\}/g,
        (_, label: string) => metric[label] ?? "",
      ),
      points: values.map(([at, value]) => [at * 1000, Number(value)]),
    }));
  };
  const panels = await Promise.all(
    dashboard.panels.map(async (panel) => ({
      ...panel,
      series: (await Promise.all(panel.targets.map(seriesOf))).flat(),
    })),
  );

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
  try {
    mkdirSync("docs/screenshots", { recursive: true });
    for (const scheme of ["dark", "light"] as const) {
      const page = await browser.newPage({
        viewport: { width: 1600, height: 900 },
      });
      page.on(
        "console",
        (message) =>
          message.type() === "error" && console.error(message.text()),
      );
      await page.setContent(`<!doctype html><html><body></body></html>`);
      await page.addScriptTag({
        path: "node_modules/chart.js/dist/chart.umd.min.js",
      });
      // tsx names this file's functions through a helper of its own, which the page lacks.
      await page.evaluate("globalThis.__name = (target) => target");
      await page.evaluate(drawDashboard, {
        title: dashboard.title,
        panels,
        scheme,
      });
      await page.screenshot({
        path: `docs/screenshots/grafana-dashboard-${scheme}.png`,
        fullPage: true,
      });
      await page.close();
    }
  } finally {
    await browser.close();
  }
  console.log(
    "wrote docs/screenshots/grafana-dashboard-dark.png and -light.png",
  );
} finally {
  await prometheus.stop();
  await server.stop();
  await Promise.all([provider.close(), flaky.close()]);
  await db.destroy();
  await database.dispose();
}

/** Runs in the page: the panels at their grid places, as Grafana lays them out (24 columns, 30 px rows). */
function drawDashboard({
  title,
  panels,
  scheme,
}: {
  title: string;
  panels: (Panel & { series: Series[] })[];
  scheme: "dark" | "light";
}): void {
  const dark = scheme === "dark";
  const colours = [
    "#73bf69",
    "#f2cc0c",
    "#8ab8ff",
    "#ff780a",
    "#f2495c",
    "#5794f2",
    "#b877d9",
    "#ff9830",
  ];
  const [text, muted, grid] = dark
    ? ["#ccccdc", "#8e8e9e", "#2c3235"]
    : ["#24292e", "#6e7079", "#e4e7e7"];
  const format = (value: number, unit: string | undefined) => {
    if (!Number.isFinite(value)) return "–";
    if (unit === "s")
      return value < 1
        ? `${(value * 1000).toFixed(0)} ms`
        : `${value.toFixed(2)} s`;
    if (unit === "percentunit") return `${(value * 100).toFixed(1)} %`;
    if (unit === "bytes") return `${(value / 2 ** 20).toFixed(0)} MiB`;
    return Math.abs(value) >= 1000
      ? value.toLocaleString("en", { maximumFractionDigits: 0 })
      : value.toLocaleString("en", { maximumFractionDigits: 2 });
  };
  document.body.style.cssText = `margin:0;padding:16px;background:${dark ? "#111217" : "#f4f5f5"};color:${text};font:13px Inter,Helvetica,Arial,sans-serif`;
  const heading = document.createElement("h1");
  heading.textContent = title;
  heading.style.cssText = "font-size:18px;font-weight:500;margin:0 0 12px";
  document.body.append(heading);
  const board = document.createElement("div");
  board.style.cssText =
    "display:grid;grid-template-columns:repeat(24,1fr);grid-auto-rows:30px;gap:8px";
  document.body.append(board);
  for (const panel of panels) {
    const box = document.createElement("section");
    const { x, y, w, h } = panel.gridPos;
    box.style.cssText = `grid-column:${x + 1}/span ${w};grid-row:${y + 1}/span ${h};background:${dark ? "#181b1f" : "#fff"};border:1px solid ${grid};border-radius:2px;padding:8px;display:flex;flex-direction:column;min-width:0`;
    const name = document.createElement("h2");
    name.textContent = panel.title;
    name.style.cssText = "font-size:13px;font-weight:500;margin:0 0 4px";
    box.append(name);
    board.append(box);
    const unit = panel.fieldConfig?.defaults?.unit;
    if (panel.type === "stat") {
      const last = panel.series[0]?.points.at(-1)?.[1];
      const value = document.createElement("div");
      value.textContent = last === undefined ? "No data" : format(last, unit);
      value.style.cssText = `flex:1;display:flex;align-items:center;justify-content:center;font-size:${last === undefined ? 16 : 34}px;font-weight:500;color:${last === undefined ? muted : colours[0]}`;
      box.append(value);
      continue;
    }
    const holder = document.createElement("div");
    holder.style.cssText = "position:relative;flex:1;min-height:0";
    const canvas = document.createElement("canvas");
    holder.append(canvas);
    box.append(holder);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- chart.js's UMD global, put in the page by addScriptTag
    const Chart = (window as any).Chart;
    new Chart(canvas, {
      type: "line",
      data: {
        datasets: panel.series.map((series, i) => ({
          label: series.name,
          data: series.points.map(([at, value]) => ({
            x: at,
            y: Number.isFinite(value) ? value : null,
          })),
          borderColor: colours[i % colours.length],
          backgroundColor: `${colours[i % colours.length]}22`,
          fill: true,
          pointRadius: 0,
          borderWidth: 1.5,
          tension: 0.2,
        })),
      },
      options: {
        animation: false,
        maintainAspectRatio: false,
        parsing: false,
        scales: {
          x: {
            type: "linear",
            ticks: {
              color: muted,
              maxTicksLimit: 6,
              callback: (at: number) =>
                new Date(at).toISOString().slice(11, 19),
            },
            grid: { color: grid },
          },
          y: {
            beginAtZero: true,
            ticks: {
              color: muted,
              maxTicksLimit: 5,
              callback: (value: number) => format(value, unit),
            },
            grid: { color: grid },
          },
        },
        plugins: {
          legend: {
            position: "bottom",
            labels: {
              color: text,
              boxWidth: 10,
              boxHeight: 2,
              font: { size: 11 },
            },
          },
        },
      },
    });
  }
}
