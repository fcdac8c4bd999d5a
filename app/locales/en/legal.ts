import type zh from '../zh/legal.ts'
import type { Messages } from '../types.ts'

export default {
  shared: {
    lastUpdated: 'Last updated: November 20, 2026',
    toc: 'Contents',
    backToTop: 'Back to top',
    contactCta: 'Open a support ticket',
    languageNote:
      'The Chinese version of this document is authoritative. Other language versions are provided for convenience; if they differ, the Chinese version prevails.',
  },
  privacy: {
    meta: {
      title: 'Privacy Policy',
      description:
        'What we collect, why, how long we keep it and how we protect it. The service is a pure pass-through and does not store conversation content.',
    },
    eyebrow: 'Legal',
    title: 'Privacy Policy',
    intro:
      'This privacy policy explains how we collect, use, keep and protect your information when you use this website and the API relay service (the “Service”). The Service is a pure pass-through relay: we do not store or log your conversation content. By signing up for or using the Service, you confirm that you have read and agree to this policy.',
    summary: {
      title: 'At a glance',
      items: [
        'We never store or log conversation content (prompts and model responses).',
        'We collect only what the Service needs: account information, usage statistics and technical information.',
        'We do not sell personal information and use no advertising or tracking cookies.',
        'Conversation content is processed by the upstream model provider under its own privacy policy.',
      ],
    },
    sections: {
      'pass-through': {
        title: 'A pure pass-through service',
        body: [
          'The Service forwards requests and responses between your client (for example, Claude Code) and the upstream model provider. The prompts, code and file contents you send, and the content the model returns (together, “conversation content”), only pass through our servers in transit. They are never written to a database, a log or any other persistent storage, and are never used to train models or for any other purpose.',
          'We do not add system prompts to your requests and do not alter the content of requests or responses. We only perform the protocol-level processing that forwarding requires, such as replacing authentication details and counting tokens.',
        ],
      },
      collect: {
        title: 'Information we collect',
        body: ['To provide the Service, bill for it and keep it secure, we collect only the following:'],
        items: [
          'Account information: your username and e-mail address, plus the name, phone number, company and avatar link you choose to add to your profile. Passwords are stored only as salted, irreversible hashes.',
          'Usage statistics: your API call count and points use, including the model, token counts, points spent, time and API key of each call.',
          'Technical information: the IP address from which you visit the website or call the API, and device information such as your browser, operating system or client type.',
          'Information you give us: the contents of support tickets, explanations in points-reset requests and anything else you submit to us.',
        ],
        after: ['We do not collect conversation content or any information unrelated to providing the Service.'],
      },
      use: {
        title: 'How we use information',
        items: [
          'To create and manage your account, and to handle sign-in, sign-up, password resets and verification codes;',
          'To calculate and deduct points, and to show you your balance, usage history and subscription status;',
          'To handle your support tickets, points-reset requests and referral rewards;',
          'To detect and prevent abuse, fraud, attacks and other breaches of the Terms of Service, for example by rate-limiting sign-in and verification-code requests;',
          'To keep the Service stable and to investigate and fix faults;',
          'To meet our obligations under applicable laws and regulations.',
        ],
        after: ['We do not sell your personal information or use it for advertising or profiling.'],
      },
      retention: {
        title: 'How long we keep information',
        body: ['We keep your information only as long as the purposes above require:'],
        items: [
          'Conversation content: not kept at all.',
          'Account information and usage statistics: for as long as your account exists, so you can see your history and we can reconcile billing. After your account is closed, we delete or anonymise them promptly.',
          'Technical information (such as IP addresses): for the period required by cybersecurity laws and regulations (usually at least six months), after which it is deleted or anonymised.',
          'Support tickets: for a reasonable period after they are resolved, so we can follow up and handle disputes.',
        ],
        after: ['Where laws or regulations require a longer retention period, we keep information for that period.'],
      },
      protection: {
        title: 'How we protect information',
        items: [
          'The website and the API are served over encrypted HTTPS connections;',
          'Passwords are stored with a salted hashing algorithm; API keys are shown only once, when created, and the server keeps only their hashes;',
          'Your signed-in session is kept in an encrypted, HTTP-only cookie;',
          'Verification codes are single-use and expire, and sign-in, sign-up and verification-code requests are rate-limited;',
          'Staff access to user data is strictly limited, and every query can reach only the data of the person making it.',
        ],
        after: [
          'No method of transmission or storage over the internet is completely secure. If a personal-information security incident occurs, we will notify you promptly as the law requires and take steps to limit its impact.',
        ],
      },
      upstream: {
        title: 'Upstream model providers',
        body: [
          'The Service depends on upstream model providers (for example, Anthropic, or other providers offering compatible APIs) to process your requests. Your conversation content is forwarded to the upstream provider, which processes it and generates the response. The upstream provider’s handling of that content is governed by its own privacy policy and terms of use, not by this policy.',
          'Upstream providers may be located outside mainland China, so the content of your requests may be transferred abroad for processing. Please read the relevant provider’s policies before use, and avoid sending sensitive personal information in requests unless it is necessary.',
          'Apart from what forwarding requires, we do not give your account information to upstream providers.',
        ],
      },
      sharing: {
        title: 'Sharing and disclosure',
        body: ['We do not share, transfer or disclose your personal information to any third party except:'],
        items: [
          'Forwarding conversation content to the upstream model provider to fulfil your request (see the previous section);',
          'With your explicit consent;',
          'When required by law, regulation, legal proceedings or a competent authority;',
          'Where necessary, and as far as the law allows, to protect the safety and property of you, other users or the public.',
        ],
      },
      cookies: {
        title: 'Cookies',
        body: ['We use only the cookies the Service needs to work:'],
        items: [
          'Session cookie: keeps you signed in and carries one-time notifications; it is encrypted and HTTP-only;',
          'Language cookie: remembers the interface language you chose;',
          'Theme cookie: remembers whether you chose the light or dark theme.',
        ],
        after: ['We use no advertising, analytics or cross-site tracking cookies, and the website loads no third-party analytics scripts.'],
      },
      rights: {
        title: 'Your rights',
        body: ['With respect to your personal information, you have the right to:'],
        items: [
          'Access and copy it: see your account information, points and usage history in the dashboard;',
          'Correct and complete it: change your profile and password on the Profile page;',
          'Delete it: ask us to delete your personal information or close your account;',
          'Withdraw consent: withdraw consent you gave earlier, without affecting processing carried out before the withdrawal;',
          'Get an explanation: ask us to explain our rules for processing personal information.',
        ],
        after: [
          'To exercise any of these rights, contact us through a support ticket. We will act once we have verified your identity and usually reply within 1–2 working days.',
        ],
      },
      minors: {
        title: 'Minors',
        body: [
          'The Service is intended for developers. Users under 18 should use it only with the consent and guidance of a parent or guardian. We do not knowingly collect personal information from children under 14; if we find that we have, we will delete it as soon as possible.',
        ],
      },
      changes: {
        title: 'Changes to this policy',
        body: [
          'We may update this policy from time to time. When we do, we change the “Last updated” date at the top of this page, and for material changes we notify you through a notice on the website or by e-mail. Continuing to use the Service after an update takes effect means you accept the updated policy.',
        ],
      },
      contact: {
        title: 'Contact us',
        body: ['If you have questions, comments or requests about this policy, sign in and open a support ticket. We will reply as soon as we can.'],
      },
    },
  },
  terms: {
    meta: {
      title: 'Terms of Service',
      description:
        'The terms for using this API relay service: accounts, redeem codes and points, acceptable use, API keys, availability and limits of liability.',
    },
    eyebrow: 'Legal',
    title: 'Terms of Service',
    intro:
      'Welcome. These Terms of Service (the “Terms”) are an agreement between you and the operator of this service (“we”, “us”) about your use of this website and the API relay service (the “Service”). By creating an account or using the Service, you confirm that you have read, understood and agree to these Terms and to the Privacy Policy. If you do not agree, please do not use the Service.',
    summary: {
      title: 'At a glance',
      items: [
        'The Service is a pure pass-through API relay and does not store conversation content.',
        'Points refill hourly according to your package; packages expire; replacing an active package forfeits its remaining points.',
        'You are responsible for your API keys: every call made with them counts as your own.',
        'The Service depends on upstream model providers. These Terms are governed by the laws of the People’s Republic of China.',
      ],
    },
    sections: {
      service: {
        title: 'The Service',
        body: [
          'The Service is an LLM API relay: we forward requests from your client (for example, Claude Code, or other tools compatible with the Anthropic or OpenAI APIs) to the upstream model provider and return the responses to you, charging points per call.',
          'The Service is a pure pass-through: it does not store or log conversation content and does not inject system prompts. See the Privacy Policy for details.',
          'We may change the available models, the points price of each model and the Service’s features as upstream providers change, and we publish the current information on the website.',
        ],
      },
      accounts: {
        title: 'Accounts',
        items: [
          'Provide true and accurate information when you sign up, and keep your e-mail address working so you receive verification codes and important notices;',
          'Keep your password safe. You are responsible for all activity under your account;',
          'Your account is for your own use only and may not be sold, rented, transferred or shared; team members join a team package through a team invitation;',
          'If your account is compromised or at risk, change your password immediately and tell us through a support ticket.',
        ],
      },
      packages: {
        title: 'Redeem codes, packages and points',
        items: [
          'Packages are activated with a redeem code or a team invitation and take effect immediately. Each redeem code can be used only once.',
          'The points each call costs follow the model points prices published on the website, either a fixed amount per call or an amount based on usage.',
          'Points refill automatically every hour by the amount your package specifies, up to the package’s points limit.',
          'Packages have a validity period (for example, 30 days). When a package expires, it ends and its remaining points lapse; validity is not extended.',
          'If you redeem a new package while another is active, the active package is deactivated at once, its remaining points are forfeited and the new package takes effect immediately. The website asks you to confirm before redeeming.',
          'Joining a team replaces your personal package and cannot be undone; team members share the team’s points.',
          'Points can be used only within the Service; they cannot be transferred, sold or exchanged for cash. Except where the law requires otherwise, redeemed packages and spent points are not refundable.',
        ],
      },
      'acceptable-use': {
        title: 'Acceptable use',
        body: ['You may not use the Service to:'],
        items: [
          'Break the laws and regulations of the People’s Republic of China or the laws where you are, including by generating or spreading illegal or harmful content;',
          'Breach the usage policies of upstream model providers;',
          'Resell, distribute or publicly share access to the Service or your API keys, or offer a relay service to others on top of the Service;',
          'Attack, scan, disrupt or damage the Service or its infrastructure, or get around rate limits, billing or security measures;',
          'Register accounts in bulk by automated means, or abuse redeem codes or the referral programme;',
          'Infringe the intellectual property, privacy or other lawful rights of others.',
        ],
        after: [
          'If you breach these Terms, we may, depending on the severity, issue a warning, limit features, or suspend or terminate the Service for you.',
        ],
      },
      'api-keys': {
        title: 'API keys',
        items: [
          'An API key is as good as your account credentials. Keep it safe: do not commit it to public repositories or share it with anyone;',
          'Every call made with your API key counts as made by you, and you bear the points it uses;',
          'A key is shown only once, when it is created. If you suspect a key has leaked, delete it in the dashboard right away and create a new one;',
          'You bear any loss caused by failing to keep your keys safe.',
        ],
      },
      availability: {
        title: 'Availability and upstream dependency',
        body: [
          'We work to keep the Service stable and fast, but it depends on third parties such as upstream model providers, network carriers and cloud providers. Upstream outages, rate limits, policy or price changes, and network conditions can all affect the Service’s availability, response times and the models on offer.',
          'Figures shown on the website, such as availability, response time, access speed and savings, are our service targets or typical results, not a guarantee for every call.',
          'We may suspend some or all of the Service for maintenance, upgrades or emergencies, and will give notice in advance where we can.',
        ],
      },
      content: {
        title: 'Conversation content',
        body: [
          'You are responsible for the content of your requests and for its lawfulness. Because the Service does not store or log conversation content, we cannot recover or provide any past conversation; keep whatever you need yourself.',
          'Model responses are generated by the upstream model and may be inaccurate, incomplete or unsuitable for your purpose. Use your own judgement, verify them, and take responsibility for how you use them. We claim no rights in your requests or in model responses.',
        ],
      },
      liability: {
        title: 'Disclaimers and limitation of liability',
        items: [
          'The Service is provided “as is” and “as available”. To the extent the law allows, we do not guarantee that it will be uninterrupted, error-free or suited to your particular needs.',
          'To the fullest extent the law allows, we are not liable for any indirect, incidental or consequential loss (including loss of profit, data or business) arising from the use of, or inability to use, the Service.',
          'To the fullest extent the law allows, our total liability in connection with the Service is limited to the amount you actually paid for the Service in the three months before the event giving rise to the liability.',
          'These limits do not apply to any liability that the law does not allow to be limited or excluded.',
        ],
      },
      changes: {
        title: 'Changes to these Terms',
        body: [
          'We may change these Terms from time to time. When we do, we update the “Last updated” date at the top of this page, and for material changes we notify you through a notice on the website or by e-mail. Continuing to use the Service after a change takes effect means you accept the changed Terms; if you do not agree, stop using the Service.',
        ],
      },
      termination: {
        title: 'Termination',
        items: [
          'You may stop using the Service at any time, and may ask us through a support ticket to close your account. When the account is closed, any unused package and points lapse with it.',
          'If you breach these Terms, we may suspend or terminate your account; in serious cases, activated packages and remaining points are not refunded.',
          'If we decide to stop operating the Service, we will give advance notice through the website or by e-mail.',
          'Provisions that by their nature should survive termination (such as limitation of liability, governing law and dispute resolution) survive it.',
        ],
      },
      law: {
        title: 'Governing law and disputes',
        body: [
          'The formation, validity, interpretation, performance and dispute resolution of these Terms are governed by the laws of the People’s Republic of China.',
          'Any dispute arising from these Terms or the Service should first be settled through friendly negotiation; if that fails, either party may bring a lawsuit before a people’s court with jurisdiction.',
          'If any provision of these Terms is held invalid or unenforceable, the other provisions remain in effect.',
        ],
      },
      contact: {
        title: 'Contact us',
        body: ['If you have any questions about these Terms, sign in and open a support ticket. We reply within 1–2 working days.'],
      },
    },
  },
} satisfies Messages<typeof zh>
