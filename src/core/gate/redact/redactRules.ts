/**
 * Credential shapes cut out of every output. The kinds follow the maintained public rule
 * sets (gitleaks' rules, secretlint's recommended preset) and the providers' documented
 * token formats; each entry names its kind, which the model and the card are told. These are
 * single-line shapes, applied to one line (or one window of a very long line) at a time;
 * key blocks and key bodies without their BEGIN line are found by redactLines.ts.
 */
export interface RedactRule {
	label: string;
	re: RegExp;
}

// Values end at whitespace or a quote; used where a prefix makes the kind certain.
const V = '[A-Za-z0-9_\\-]';

/**
 * Prefixes that make a token's kind certain. A token running into a cut Keel made (a long
 * line cut by read_file, a search passage, the end of a live stream so far: Keel marks its
 * cuts with "…") is redacted however short the part left is: half a key is still a secret.
 */
export const CUT_PREFIXES: Array<[string, string]> = [
	['GitHub token', 'gh[pousr]_|github_pat_'],
	['GitLab token', 'glpat-|glptt-|gldt-|glrt-|glcbt-|gloas-|glft-|glimt-|glagent-|glsoat-'],
	['Anthropic key', 'sk-ant-'],
	['OpenAI key', 'sk-(?:proj|svcacct|admin)-'],
	['AWS access key', '(?:AKIA|ASIA)[0-9A-Z]'],
	['Hugging Face token', 'hf_'],
	['Slack token', 'xox[abposre]-|xapp-'],
	['Google API key', 'AIza'],
	['Google OAuth secret', 'GOCSPX-'],
	['Google OAuth token', 'ya29\\.'],
	['Stripe key', '(?:sk|rk)_(?:live|test)_'],
	['webhook secret', 'whsec_'],
	['npm token', 'npm_'],
	['PyPI token', 'pypi-AgE'],
	['SendGrid key', 'SG\\.'],
	['Shopify token', 'shp(?:at|ca|pa|ss)_'],
	['Linear key', 'lin_(?:api|oauth)_'],
	['1Password token', 'ops_ey'],
	['DigitalOcean token', 'do[por]_v1_'],
	['Doppler token', 'dp\\.(?:pt|st|sa|ct|scim|audit)\\.'],
	['JWT', 'eyJ[A-Za-z0-9_-]{4,}\\.'],
	['Twilio key', 'SK[0-9a-fA-F]{8}'],
	['Mailgun key', 'key-[0-9a-zA-Z]{8}'],
	['Databricks token', 'dapi[a-f0-9]{8}'],
	['Telegram bot token', '\\d{8,10}:AA'],
	['Discord bot token', '[MN][A-Za-z\\d]{23,25}\\.'],
];

export const REDACT_RULES: RedactRule[] = [
	// First: the kinds whose prefix is certain, cut short by "…" (see CUT_PREFIXES).
	...CUT_PREFIXES.map(([label, prefix]) => ({
		label,
		re: new RegExp(`(?<![A-Za-z0-9_])(?:${prefix})[A-Za-z0-9_\\-.]{2,}(?=…)`, 'g'),
	})),
	{ label: 'AWS access key', re: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ABIA|ACCA)[0-9A-Z]{16}\b/g },
	// ~/.aws/credentials and config: the secret and session token lines (any case, = or :).
	{
		label: 'AWS secret',
		re: /(?<=\baws_(?:secret_access_key|session_token|security_token)["']?\s*[=:]\s*["']?)(?:[A-Za-z0-9/+=]{16,}|[A-Za-z0-9/+=]{2,}(?=…|$))/gi,
	},
	{ label: 'GitHub token', re: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{50,})\b/g },
	{
		label: 'GitLab token',
		re: /\b(?:glpat|glptt|gldt|glrt|glcbt|gloas|glft|glimt|glagent|glsoat|GR1348941)-?[A-Za-z0-9_-]{20,}\b/g,
	},
	{ label: 'Anthropic key', re: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
	{ label: 'OpenAI key', re: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g },
	{ label: 'Hugging Face token', re: /\bhf_[A-Za-z0-9]{30,}\b/g },
	{ label: 'Slack token', re: /\b(?:xox[abposre]|xapp|xoxe\.xox[bp])-[A-Za-z0-9-]{10,}/g },
	{
		label: 'Slack webhook',
		re: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/(?:[A-Za-z0-9+/_-]{20,}|[A-Za-z0-9+/_-]{2,}(?=…))/g,
	},
	{ label: 'Google API key', re: /\bAIza[0-9A-Za-z_-]{35}\b/g },
	{ label: 'Google OAuth secret', re: /\bGOCSPX-[A-Za-z0-9_-]{20,}/g },
	{ label: 'Google OAuth token', re: /\bya29\.[A-Za-z0-9_-]{20,}/g },
	{ label: 'Stripe key', re: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{20,}\b/g },
	{ label: 'webhook secret', re: /\bwhsec_[A-Za-z0-9+/=]{20,}/g },
	{ label: 'npm token', re: /\bnpm_[A-Za-z0-9]{36}\b/g },
	// .npmrc / .yarnrc: //registry/:_authToken=…, _auth=…, _password=…
	{
		label: 'npm auth',
		re: /(?<=(?:^|[\s:;])(?:_authToken|_auth|_password|npmAuthToken|npmAuthIdent)["']?\s*[=:]\s*["']?)[^\s"'$]+/gim,
	},
	{ label: 'PyPI token', re: /\bpypi-AgE[A-Za-z0-9_-]{50,}/g },
	{ label: 'SendGrid key', re: /\bSG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}/g },
	{ label: 'Twilio key', re: /\bSK[0-9a-fA-F]{32}\b/g },
	{ label: 'Mailgun key', re: /\bkey-[0-9a-zA-Z]{32}\b/g },
	{ label: 'Shopify token', re: /\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b/g },
	{ label: 'Linear key', re: /\blin_(?:api|oauth)_[A-Za-z0-9]{40}\b/g },
	{ label: '1Password token', re: /\bops_ey[A-Za-z0-9+/=_-]{50,}/g },
	{ label: 'DigitalOcean token', re: /\bdo[por]_v1_[a-f0-9]{64}\b/g },
	{ label: 'Doppler token', re: /\bdp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,}/g },
	{ label: 'Databricks token', re: /\bdapi[a-f0-9]{32}(?:-\d)?\b/g },
	{ label: 'Telegram bot token', re: /\b\d{8,10}:AA[A-Za-z0-9_-]{33}\b/g },
	{ label: 'Discord bot token', re: /\b[MN][A-Za-z\d]{23,25}\.[\w-]{6}\.[\w-]{27,38}\b/g },
	{
		label: 'Azure storage key',
		re: /(?<=\b(?:AccountKey|SharedAccessKey|SharedAccessSignature)\s*=\s*)(?:[A-Za-z0-9+/=%]{16,}|[A-Za-z0-9+/=%]{2,}(?=…|$))/gi,
	},
	{ label: 'Azure SAS signature', re: /(?<=[?&]sig=)[A-Za-z0-9%+/=]{20,}/g },
	{ label: 'JWT', re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
	{
		label: 'authorization header',
		re: /(?<=\b(?:Bearer|Basic|Token|Digest)\s+)(?:[A-Za-z0-9._~+/=-]{12,}|[A-Za-z0-9._~+/=-]{2,}(?=…))/g,
	},
	// Docker's config.json and similar: "auth": "base64(user:pass)", identity and registry tokens.
	{
		label: 'registry auth',
		re: /(?<="(?:auth|identitytoken|registrytoken|password|secret|token)"\s*:\s*")[^"\n]{4,}?(?="|…|$)/gi,
	},
	{ label: 'URL credentials', re: /(?<=[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)(?:[^\s@/]{3,}(?=@)|[^\s@/…]{1,}(?=…))/gi },
	// ENV-style names (DB_PASSWORD=…, export API_TOKEN="…"): any non-empty value, quoted (spaces allowed) or bare.
	{
		label: 'secret assignment',
		re: /(?<=\b[A-Z0-9_]*(?:SECRET|TOKEN|PASSWORD|PASSWD|PASSPHRASE|API_?KEY|PRIVATE_KEY|ACCESS_KEY|CLIENT_SECRET|AUTH|CREDENTIALS?)[A-Z0-9_]*\s*[=:]\s*)(?:"[^"\n$]+"|'[^'\n]+'|[^\s"'$][^\s"']*)/g,
	},
	// Config-style settings (password: x, client_secret = "…"), at a line's start (behind a read_file line number, a grep
	// "file:line:" or a diff's +/-) or after a space (a passage joins lines): a value that is not code.
	{
		label: 'secret setting',
		re: new RegExp(
			`(?<=(?:^(?:\\s*\\d+(?:\\s+|[:-])|[^\\s:]+:\\d+[:-]|[+-])?|\\s)\\s*[\\w.-]*(?:password|passwd|passphrase|secret|api[_-]?key|access[_-]?key|private[_-]?key|auth[_-]?token|access[_-]?token|refresh[_-]?token)["']?\\s*[=:]\\s*)(?:"[^"\\n]{3,}"|'[^'\\n]{3,}'|(?!(?:string|number|boolean|null|true|false|undefined|any)\\b)[^\\s"'$({\\[;,][^\\s;,()]{2,}(?=\\s|$))`,
			'gim',
		),
	},
	{
		label: 'secret literal',
		re: new RegExp(
			`(?<=\\b${V}*(?:secret|token|password|passwd|apiKey|api_key)${V}*["']?\\s*[=:]\\s*["'])[^"'\\s]{12,}(?=["'])`,
			'gi',
		),
	},
];
