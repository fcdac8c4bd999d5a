import type zh from '../zh/marketing.ts'
import type { Messages } from '../types.ts'

export default {
  meta: {
    title: 'Claude Code 向け API 中継サービス｜高速アクセス、呼び出しごとの従量制',
    description:
      '中国本土と海外の開発者のための LLM API 中継サービスです。完全なパススルーで、会話内容を保存せず、システムプロンプトも挿入しません。中継が加える遅延と稼働率はステータスページで実測値を公開しており、料金は公式 API より 30〜50% 安くすることを目標にしています。',
  },
  hero: {
    badge: '完全パススルー · 会話内容は保存しません',
    titleLine1: 'Claude Code を',
    titleLine2: 'もっと速く、もっと安く',
    subtitle:
      '中国本土と海外の開発者のための LLM API 中継サービスです。完全なパススルーで、会話内容は一切保存しません。',
    promiseMeasured: '現在の料金で公式価格より最大 {{percent}}% おトク。中国国内からのアクセスは最大 300% 高速化が目標です。',
    promiseTarget: '目標：料金は公式 API より 30〜50% 安く、中国国内からのアクセスは最大 300% 高速に。',
    register: 'アカウント登録',
    login: 'ログイン',
    dashboard: 'ダッシュボードへ',
    note: '引き換えコードをお持ちですか？登録後に「サブスクリプション」ページで引き換えると、すぐにプランが有効になります。',
  },
  terminal: {
    label: 'ターミナルの例：Claude Code の設定',
    keyComment: '# 1. ダッシュボードで作成した API キー',
    urlComment: '# 2. Claude Code の接続先を中継サービスに',
    runComment: '# 3. いつもどおり起動',
    keyPlaceholder: '<API キー>',
    connected: '中継サービスに接続しました',
  },
  stats: {
    heading: 'サービス指標',
    target: '目標',
    measured: '直近 {{days}} 日の実測',
    computed: '現在の料金から算出',
    more: 'ステータスを見る',
    uptime: { label: '稼働率', target: '99.9%' },
    latency: { label: '中継が加える遅延（中央値）', value: '< {{ms}} ms', target: '< 50 ms' },
    savings: { label: '公式価格からの最大節約率', value: '{{percent}}%', target: '30%〜50%' },
    support: { label: 'チケットへの初回返信（中央値）', target: '1〜2 営業日' },
  },
  audiences: {
    eyebrow: '対象ユーザー',
    title: '中国国内でも海外でも',
    subtitle: 'ひとつのアカウント、ひとつのキーで、どのネットワーク環境でも安定してご利用いただけます。',
    china: {
      title: '中国本土の開発者',
      intro: '中国国内のネットワークに最適化した接続経路をご用意しています。',
      points: {
        speed: '目標：中国国内からのアクセスを最大 300% 高速に。長時間のコーディングでも快適です',
        priceMeasured: '現在の料金で公式 API より最大 {{percent}}% 安く、呼び出しごとにポイントを消費する従量制です',
        priceTarget: '目標：公式 API より 30〜50% 安い料金。呼び出しごとにポイントを消費する従量制です',
        payment: '引き換えコードでプランを有効化。海外のクレジットカードや海外アカウントは不要です',
        support: '中国語のインターフェースとサポートチケット。1〜2 営業日以内に対応します',
      },
    },
    overseas: {
      title: '海外の開発者',
      intro: '公式 API と同じ使い方で、コストだけを抑えられます。',
      points: {
        compatible: 'Anthropic Messages API と OpenAI Chat Completions API に対応。環境変数を 2 つ設定するだけです',
        latency: '中継による遅延はほとんどありません。追加遅延と稼働率はステータスページで実測値を公開',
        savingsMeasured: '現在の料金で API 費用を最大 {{percent}}% 節約。ポイントは毎時自動で補充されます',
        savingsTarget: '目標：API 費用を最大 50% 節約。ポイントは毎時自動で補充されます',
        languages: '中国語・英語・日本語のインターフェース、ライト／ダークテーマに対応しています',
      },
    },
  },
  trust: {
    eyebrow: 'プライバシーと透明性',
    title: 'あなたのコードは、あなたのものです',
    subtitle: 'リクエストを転送するだけで、会話を読むことも、保存することも、書き換えることもありません。',
    noStorage: {
      title: '会話内容を保存しません',
      body: 'プロンプトとモデルの応答は転送中に中継サーバーを通過するだけで、データベースにもログにも書き込みません。課金のために記録するのは、モデル、トークン数、ポイント、日時のみです。',
    },
    noPrompts: {
      title: 'システムプロンプトを挿入しません',
      body: 'リクエストはそのまま上流のモデルに転送され、隠れたシステムプロンプトは一切追加されません。モデル本来の挙動をそのままお使いいただけます。',
    },
    noMonitoring: {
      title: '監視コードを組み込みません',
      body: 'サイトはサードパーティの解析・トラッキングスクリプトを読み込みません。Cookie はログイン状態、言語、テーマの保存にのみ使用します。',
    },
    link: 'プライバシーポリシーを読む',
  },
  features: {
    eyebrow: '機能',
    title: '日々の開発に必要なものを、すべて',
    items: {
      refill: { title: 'ポイントは毎時補充', body: 'プランに応じてポイントが毎時自動で補充されるので、使い切る心配がありません。' },
      keys: { title: '複数の API キー', body: 'デバイスやプロジェクトごとにキーを作成し、いつでも個別に削除できます。' },
      team: { title: 'チームプラン', body: 'メンバー全員でポイントを共有し、各自の利用状況もひと目で確認できます。' },
      device: { title: 'デバイスコードでログイン', body: 'ターミナルで認可を開始し、Web で 8 文字のコードを入力するだけで完了します。' },
      tickets: { title: 'サポートチケット', body: '困ったときはチケットを送信してください。1〜2 営業日以内に対応します。' },
      usage: { title: '利用状況をひと目で', body: 'ダッシュボードでポイント残高、補充ペース、直近 10 日間の利用推移を確認できます。' },
    },
  },
  steps: {
    eyebrow: 'はじめかた',
    title: '3 ステップで接続',
    subtitle: '登録から Claude Code で最初のリクエストを送るまで、数分で完了します。',
    redeem: {
      title: '引き換えコードでプランを有効化',
      body: 'アカウント登録後、「サブスクリプション」ページで引き換えコードを入力すると、プランとポイントがすぐに有効になります。',
    },
    key: {
      title: 'API キーを作成',
      body: '「API キー」ページでキーを作成します。キーは一度しか表示されないため、安全な場所に保管してください。',
    },
    connect: {
      title: 'Claude Code の接続先を変更',
      body: 'ANTHROPIC_BASE_URL と ANTHROPIC_AUTH_TOKEN の 2 つの環境変数を設定し、いつもどおり claude を起動します。',
    },
  },
  cta: {
    title: '今すぐ始めて、速く・安くコーディングを',
    subtitle: '登録は 1 分で完了します。アカウントをお持ちの方は、ログインしてダッシュボードへどうぞ。',
    signedInSubtitle: 'ポイント残高、API キー、利用状況はダッシュボードで確認できます。',
    register: 'アカウントを作成',
    login: 'ログイン',
  },
} satisfies Messages<typeof zh>
