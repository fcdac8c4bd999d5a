/** The landing page (routes/home.tsx). zh is the typed source of truth for en and ja. */
export default {
  meta: {
    title: 'Claude Code API 中转服务｜国内加速，按调用计费',
    description:
      '面向中国大陆与海外开发者的大模型 API 中转服务：纯透传，不存储对话内容，不注入系统提示词；中转附加的延迟与可用性在状态页实测公开，价格目标比官方 API 低 30%–50%。',
  },
  hero: {
    badge: '纯透传 · 不存储对话内容',
    titleLine1: '更快、更省地使用',
    titleLine2: 'Claude Code',
    subtitle:
      '面向中国大陆与海外开发者的大模型 API 中转服务。只做透传，不保存你的任何对话。',
    promiseMeasured: '按当前价格，较官方价最多节省 {{percent}}%；我们的目标：国内访问速度最高提升 300%。',
    promiseTarget: '我们的目标：价格比官方 API 低 30%–50%，国内访问速度最高提升 300%。',
    register: '立即注册',
    login: '登录',
    dashboard: '进入控制台',
    note: '已有兑换码？注册后在「订阅」页面兑换，套餐即刻生效。',
  },
  terminal: {
    label: '终端示例：配置 Claude Code',
    keyComment: '# 1. 填入在控制台创建的 API 密钥',
    urlComment: '# 2. 将 Claude Code 指向中转地址',
    runComment: '# 3. 照常启动',
    keyPlaceholder: '<你的 API 密钥>',
    connected: '已连接中转，开始编码',
  },
  stats: {
    heading: '服务数据',
    target: '目标',
    measured: '近 {{days}} 天实测',
    computed: '按当前价目计算',
    more: '查看服务状态',
    uptime: { label: '可用性', target: '99.9%' },
    latency: { label: '中转附加延迟（中位数）', value: '< {{ms}} ms', target: '< 50 ms' },
    savings: { label: '较官方价最多节省', value: '{{percent}}%', target: '30%–50%' },
    support: { label: '工单首次回复（中位数）', target: '1–2 个工作日' },
  },
  audiences: {
    eyebrow: '为谁而做',
    title: '无论你在国内还是海外',
    subtitle: '同一个账户、同一套密钥，在不同网络环境下都能稳定使用。',
    china: {
      title: '中国大陆开发者',
      intro: '针对国内网络环境优化的接入线路。',
      points: {
        speed: '目标：国内访问速度最高提升 300%，长时间编码会话同样流畅',
        priceMeasured: '按当前价格较官方 API 最多低 {{percent}}%，按调用扣除积分，用多少算多少',
        priceTarget: '目标：价格比官方 API 低 30%–50%；按调用扣除积分，用多少算多少',
        payment: '用兑换码开通套餐，无需海外信用卡或海外账户',
        support: '全中文界面与中文工单支持，1–2 个工作日内处理',
      },
    },
    overseas: {
      title: '海外开发者',
      intro: '与官方 API 相同的调用方式，更低的成本。',
      points: {
        compatible: '兼容 Anthropic Messages 与 OpenAI Chat Completions 接口，改两个环境变量即可接入',
        latency: '中转几乎不增加延迟：附加延迟与可用性在状态页实测公开',
        savingsMeasured: '按当前价格最多节省 {{percent}}% 的 API 费用，积分每小时自动补充',
        savingsTarget: '目标：最高节省 50% 的 API 费用；积分每小时自动补充',
        languages: '提供中文、English、日本語界面，支持浅色与深色主题',
      },
    },
  },
  trust: {
    eyebrow: '隐私与透明',
    title: '你的代码，只属于你',
    subtitle: '我们只负责转发请求，不读取、不保存、不修改你的对话。',
    noStorage: {
      title: '不存储对话内容',
      body: '提示词与模型回复只在传输过程中经过中转，不写入数据库，也不写入日志。计费只记录模型、Token 数量、积分和时间。',
    },
    noPrompts: {
      title: '不注入系统提示词',
      body: '请求按原样转发给上游模型，不附加任何隐藏的系统提示词，你得到的就是模型本来的表现。',
    },
    noMonitoring: {
      title: '不植入监控代码',
      body: '网站不加载第三方统计或追踪脚本，Cookie 只用于登录状态、语言和主题。',
    },
    link: '阅读隐私政策',
  },
  features: {
    eyebrow: '功能',
    title: '日常开发需要的，都已备好',
    items: {
      refill: { title: '积分每小时补充', body: '按套餐额度每小时自动补充积分，不必担心一次用完。' },
      keys: { title: '多个 API 密钥', body: '为不同设备或项目创建独立密钥，随时删除，互不影响。' },
      team: { title: '团队套餐', body: '团队成员共享积分池，每个人的用量清晰可查。' },
      device: { title: '设备码登录', body: '在终端里发起授权，在网页上输入 8 位设备码确认即可。' },
      tickets: { title: '工单支持', body: '遇到问题直接提交工单，1–2 个工作日内处理。' },
      usage: { title: '用量一目了然', body: '控制台展示积分余额、补充速度和近 10 天的用量趋势。' },
    },
  },
  steps: {
    eyebrow: '快速开始',
    title: '三步接入',
    subtitle: '从注册到在 Claude Code 里发出第一个请求，只需几分钟。',
    redeem: {
      title: '获取兑换码，开通套餐',
      body: '注册账户后，在「订阅」页面输入兑换码，套餐立即生效，积分随即到账。',
    },
    key: {
      title: '创建 API 密钥',
      body: '在「API 密钥」页面新建密钥。密钥只显示一次，请妥善保存。',
    },
    connect: {
      title: '让 Claude Code 指向中转',
      body: '设置 ANTHROPIC_BASE_URL 和 ANTHROPIC_AUTH_TOKEN 两个环境变量，然后照常运行 claude。',
    },
  },
  cta: {
    title: '现在开始，写代码更快也更省',
    subtitle: '注册只需一分钟。已有账户？登录即可进入控制台。',
    signedInSubtitle: '积分余额、API 密钥和用量趋势，都在你的控制台里。',
    register: '创建账户',
    login: '登录',
  },
}
