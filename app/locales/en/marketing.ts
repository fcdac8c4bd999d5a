import type zh from '../zh/marketing.ts'
import type { Messages } from '../types.ts'

export default {
  meta: {
    title: 'Claude Code API relay | Faster access, pay per call',
    description:
      'An LLM API relay for developers in mainland China and overseas: pure pass-through, no stored conversations, no injected system prompts. The latency the relay adds and its availability are measured and published on the status page; a target of 30–50% below the official API price.',
  },
  hero: {
    badge: 'Pure pass-through · No conversations stored',
    titleLine1: 'Run Claude\u00a0Code',
    titleLine2: 'faster, for less',
    subtitle:
      'An LLM API relay for developers in mainland China and overseas: a pure pass-through that never keeps your conversations.',
    promiseMeasured: 'At current prices, up to {{percent}}% below list price; our target: up to 300% faster access from China.',
    promiseTarget: 'Our target: 30–50% below the official API price and up to 300% faster access from China.',
    register: 'Create account',
    login: 'Sign in',
    dashboard: 'Go to dashboard',
    note: 'Have a redeem code? Redeem it on the Subscription page after signing up. It takes effect immediately.',
  },
  terminal: {
    label: 'Terminal example: configuring Claude Code',
    keyComment: '# 1. The API key you created in the dashboard',
    urlComment: '# 2. Point Claude Code at the relay',
    runComment: '# 3. Start it as usual',
    keyPlaceholder: '<your API key>',
    connected: 'Connected through the relay. Happy coding',
  },
  stats: {
    heading: 'Service figures',
    target: 'Target',
    measured: 'Measured, last {{days}} days',
    computed: 'From current prices',
    more: 'See the status page',
    uptime: { label: 'Availability', target: '99.9%' },
    latency: { label: 'Latency the relay adds (median)', value: '< {{ms}} ms', target: '< 50 ms' },
    savings: { label: 'Maximum saving on list prices', value: '{{percent}}%', target: '30%–50%' },
    support: { label: 'First reply to a ticket (median)', target: '1–2 working days' },
  },
  audiences: {
    eyebrow: 'Who it is for',
    title: 'Whether you code in China or abroad',
    subtitle: 'One account and one set of keys that work reliably on very different networks.',
    china: {
      title: 'Developers in mainland China',
      intro: 'Access routes tuned for networks inside China.',
      points: {
        speed: 'Target: up to 300% faster access from China, even in long coding sessions',
        priceMeasured: 'At current prices up to {{percent}}% below the official API; points are deducted per call, so you pay for what you use',
        priceTarget: 'Target: 30–50% below the official API price; points are deducted per call, so you pay for what you use',
        payment: 'Activate a package with a redeem code, no foreign credit card or overseas account needed',
        support: 'Fully Chinese interface and Chinese-language support tickets, handled within 1–2 working days',
      },
    },
    overseas: {
      title: 'Developers overseas',
      intro: 'The same API you already use, at a lower cost.',
      points: {
        compatible: 'Compatible with the Anthropic Messages and OpenAI Chat Completions APIs: set two environment variables and go',
        latency: 'The relay adds almost no latency: what it adds, and its availability, are measured on the status page',
        savingsMeasured: 'At current prices, save up to {{percent}}% on API costs, with points refilled automatically every hour',
        savingsTarget: 'Target: save up to 50% on API costs; points refill automatically every hour',
        languages: 'Interface in Chinese, English and Japanese, with light and dark themes',
      },
    },
  },
  trust: {
    eyebrow: 'Privacy and transparency',
    title: 'Your code stays yours',
    subtitle: 'We forward your requests. We do not read, keep or alter your conversations.',
    noStorage: {
      title: 'No stored conversations',
      body: 'Prompts and completions only pass through the relay in transit. They are never written to a database or a log. Billing records only the model, token counts, points and time.',
    },
    noPrompts: {
      title: 'No injected system prompts',
      body: 'Requests are forwarded to the upstream model as they are, with no hidden system prompt added, so you get the model’s own behaviour.',
    },
    noMonitoring: {
      title: 'No monitoring code',
      body: 'The site loads no third-party analytics or tracking scripts. Cookies are used only for your session, language and theme.',
    },
    link: 'Read the privacy policy',
  },
  features: {
    eyebrow: 'Features',
    title: 'Everything daily development needs',
    items: {
      refill: { title: 'Hourly point refills', body: 'Your package refills points every hour, so one busy session never uses up the day.' },
      keys: { title: 'Multiple API keys', body: 'Create a separate key for each machine or project and delete any of them at any time.' },
      team: { title: 'Team packages', body: 'Team members share one pool of points, and everyone’s usage stays visible.' },
      device: { title: 'Device-code sign-in', body: 'Start authorisation in your terminal and confirm it on the web with an 8-character code.' },
      tickets: { title: 'Support tickets', body: 'Open a ticket when something goes wrong; we handle it within 1–2 working days.' },
      usage: { title: 'Usage at a glance', body: 'The dashboard shows your balance, refill rate and a 10-day usage trend.' },
    },
  },
  steps: {
    eyebrow: 'Getting started',
    title: 'Up and running in three steps',
    subtitle: 'From sign-up to your first request in Claude Code takes a few minutes.',
    redeem: {
      title: 'Get a redeem code and activate a package',
      body: 'After signing up, enter your redeem code on the Subscription page. The package and its points are active at once.',
    },
    key: {
      title: 'Create an API key',
      body: 'Create a key on the API Keys page. It is shown only once, so store it somewhere safe.',
    },
    connect: {
      title: 'Point Claude Code at the relay',
      body: 'Set the ANTHROPIC_BASE_URL and ANTHROPIC_AUTH_TOKEN environment variables, then run claude as usual.',
    },
  },
  cta: {
    title: 'Start now. Code faster, spend less',
    subtitle: 'Signing up takes a minute. Already have an account? Sign in to open your dashboard.',
    signedInSubtitle: 'Your balance, API keys and usage trends are waiting in your dashboard.',
    register: 'Create account',
    login: 'Sign in',
  },
} satisfies Messages<typeof zh>
