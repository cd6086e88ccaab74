/**
 * The rules the redactor runs, as data: the maintained public rule sets (gitleaks' default
 * rules and secretlint's recommended preset, generated into maintainedRules.json with their
 * source and version) and, first, Keel's own: the shapes Keel meets that no rule set names
 * (a password in any URL, `*_TOKEN=` assignments, config settings, a token cut short by a cut
 * Keel made) and the token families the rule sets' prefixes form. Every pattern is RE2
 * syntax, compiled with re2js: matching time is linear in the text whatever the pattern.
 * The secret is the group named by `group` (else the first group that took part, else the
 * whole match); a rule runs only where one of its keywords occurs (ruleEngine.ts).
 */
import maintained from './maintainedRules.json';
import type { MaintainedRule, MaintainedRules } from './maintainedTypes';
import { CUT_PREFIXES, ENV_NAMES, PARAM_NAMES, SECRET_NAMES, T, TYPE_WORDS } from './secretNames';

export interface RedactRule extends Omit<MaintainedRule, 'from'> {
	from: MaintainedRule['from'] | 'keel';
	/** What the card and the model are told was cut. */
	label: string;
	/** Without a keyword: tried on each run of token characters (`[A-Za-z0-9_.-]`) of a length in this range. */
	token?: [number, number];
	/** The label comes from which of these groups took part (the n-th from `from` names `labels[n]`). */
	labelGroups?: { from: number; labels: string[] };
}

export const MAINTAINED = maintained as MaintainedRules;

function keel(rule: Omit<RedactRule, 'from' | 'id'> & { id?: string }): RedactRule {
	return { from: 'keel', id: rule.id ?? rule.label.toLowerCase().replace(/\W+/g, '-'), ...rule };
}

const lower = (names: readonly string[]) => names.map(n => n.toLowerCase());
/** A stem, any one letter, then `rest`: the keywords of a token family (`gh?_`). */
const letters = (stem: string, rest: string) => [...'abcdefghijklmnopqrstuvwxyz'].map(c => `${stem}${c}${rest}`);

/** Keel's own rules, tried first: their labels win where a maintained rule finds the same secret. */
export const KEEL_RULES: RedactRule[] = [
	keel({
		id: 'cut-token',
		label: 'cut token',
		// Which prefix matched names the kind: one group per prefix, in CUT_PREFIXES' order.
		regex: `(?:^|[^A-Za-z0-9_])((${CUT_PREFIXES.map(([, p]) => `(${p})`).join('|')})[A-Za-z0-9_\\-.]{2,})…`,
		keywords: ['…'],
		anchored: false,
		group: 1,
		labelGroups: { from: 3, labels: CUT_PREFIXES.map(([label]) => label) },
	}),
	keel({
		label: 'AWS access key',
		regex: '\\b((?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ABIA|ACCA)[0-9A-Z]{16})\\b',
		keywords: lower(['AKIA', 'ASIA', 'AGPA', 'AIDA', 'AROA', 'AIPA', 'ANPA', 'ANVA', 'ABIA', 'ACCA']),
		anchored: true,
		boundary: true,
		cased: ['AKIA', 'ASIA', 'AGPA', 'AIDA', 'AROA', 'AIPA', 'ANPA', 'ANVA', 'ABIA', 'ACCA'],
	}),
	// ~/.aws/credentials and config: the secret and session token lines (any case, = or :).
	keel({
		label: 'AWS secret',
		regex: '(?i)aws_(?:secret_access_key|session_token|security_token)["\']?[ \\t]*[=:][ \\t]*["\']?([A-Za-z0-9/+=]{16,}|[A-Za-z0-9/+=]{2,}(?:…|$|\\n))',
		keywords: ['aws_secret_access_key', 'aws_session_token', 'aws_security_token'],
		anchored: true,
		operator: true,
	}),
	keel({
		label: 'GitHub token',
		regex: `\\b(gh[a-z]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{50,})\\b`,
		keywords: [...letters('gh', '_'), 'github_pat_'],
		anchored: true,
		boundary: true,
	}),
	keel({
		label: 'GitLab token',
		regex: `\\b((?:glpat|glptt|gldt|glrt|glcbt|gloas|glft|glimt|glagent|glsoat|glffct|GR1348941)-?${T}{20,})\\b`,
		keywords: [
			...['glpat', 'glptt', 'gldt', 'glrt', 'glcbt', 'gloas', 'glft', 'glimt', 'glagent', 'glsoat', 'glffct'],
			'gr1348941',
		],
		anchored: true,
		boundary: true,
	}),
	keel({
		label: 'Anthropic key',
		regex: `\\b(sk-ant-${T}{20,})`,
		keywords: ['sk-ant-'],
		anchored: true,
		boundary: true,
	}),
	keel({
		label: 'OpenAI key',
		regex: `\\b(sk-(?:proj-|svcacct-|admin-)?${T}{20,})`,
		keywords: ['sk-'],
		anchored: true,
		boundary: true,
	}),
	keel({
		label: 'Hugging Face token',
		regex: '\\b(hf_[A-Za-z0-9]{30,})\\b',
		keywords: ['hf_'],
		anchored: true,
		boundary: true,
	}),
	keel({
		label: 'Slack webhook',
		regex: 'https://hooks\\.slack\\.com/(?:services|workflows|triggers)/([A-Za-z0-9+/_-]{20,}|[A-Za-z0-9+/_-]{2,}…)',
		keywords: ['https://hooks.slack.com/'],
		anchored: true,
	}),
	keel({
		label: 'Google API key',
		regex: '\\b(AIza[0-9A-Za-z_-]{35})\\b',
		keywords: ['aiza'],
		anchored: true,
		boundary: true,
		cased: ['AIza'],
	}),
	keel({
		label: 'Google OAuth secret',
		regex: `\\b(GOCSPX-${T}{20,})`,
		keywords: ['gocspx-'],
		anchored: true,
		boundary: true,
	}),
	keel({
		label: 'Google OAuth token',
		regex: `\\b(ya29\\.${T}{20,})`,
		keywords: ['ya29.'],
		anchored: true,
		boundary: true,
	}),
	keel({
		label: 'Stripe key',
		regex: '\\b((?:sk|rk)_(?:live|test)_[A-Za-z0-9]{20,})\\b',
		keywords: ['sk_live_', 'sk_test_', 'rk_live_', 'rk_test_'],
		anchored: true,
		boundary: true,
	}),
	keel({
		label: 'webhook secret',
		regex: '\\b(whsec_[A-Za-z0-9+/=]{20,})',
		keywords: ['whsec_'],
		anchored: true,
		boundary: true,
	}),
	keel({
		label: 'npm token',
		regex: '\\b(npm_[A-Za-z0-9]{36})\\b',
		keywords: ['npm_'],
		anchored: true,
		boundary: true,
	}),
	// .npmrc / .yarnrc: //registry/:_authToken=…, _auth=…, _password=…
	keel({
		label: 'npm auth',
		regex: '(?i)(?:_authToken|_auth|_password|npmAuthToken|npmAuthIdent)["\']?[ \\t]*[=:][ \\t]*["\']?([^\\s"\'$]+)',
		keywords: ['_authtoken', '_auth', '_password', 'npmauthtoken', 'npmauthident'],
		anchored: true,
		operator: true,
	}),
	keel({
		label: 'PyPI token',
		regex: `\\b(pypi-AgE${T}{50,})`,
		keywords: ['pypi-age'],
		anchored: true,
		boundary: true,
	}),
	keel({
		label: 'SendGrid key',
		regex: `\\b(SG\\.${T}{16,32}\\.${T}{16,64})`,
		keywords: ['sg.'],
		anchored: true,
		boundary: true,
		cased: ['SG.'],
	}),
	keel({
		label: 'Twilio key',
		regex: '\\b(SK[0-9a-fA-F]{32})\\b',
		keywords: ['sk'],
		anchored: true,
		boundary: true,
		cased: ['SK'],
	}),
	keel({
		label: 'Mailgun key',
		regex: '\\b(key-[0-9a-zA-Z]{32})\\b',
		keywords: ['key-'],
		anchored: true,
		boundary: true,
	}),
	keel({
		label: 'Shopify token',
		regex: '\\b(shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32})\\b',
		keywords: ['shpat_', 'shpca_', 'shppa_', 'shpss_'],
		anchored: true,
		boundary: true,
	}),
	keel({
		label: 'Linear key',
		regex: '\\b(lin_(?:api|oauth)_[A-Za-z0-9]{40})\\b',
		keywords: ['lin_api_', 'lin_oauth_'],
		anchored: true,
		boundary: true,
	}),
	keel({
		label: '1Password token',
		regex: '\\b(ops_ey[A-Za-z0-9+/=_-]{50,})',
		keywords: ['ops_ey'],
		anchored: true,
		boundary: true,
	}),
	keel({
		label: 'DigitalOcean token',
		regex: '\\b(do[a-z]_v1_[a-f0-9]{64})\\b',
		keywords: letters('do', '_v1_'),
		anchored: true,
		boundary: true,
	}),
	keel({
		label: 'Doppler token',
		regex: '\\b(dp\\.(?:pt|st|sa|ct|scim|audit)\\.[A-Za-z0-9]{40,})',
		keywords: ['dp.'],
		anchored: true,
		boundary: true,
	}),
	keel({
		label: 'Databricks token',
		regex: '\\b(dapi[a-f0-9]{32}(?:-\\d)?)\\b',
		keywords: ['dapi'],
		anchored: true,
		boundary: true,
	}),
	keel({
		label: 'Telegram bot token',
		regex: '\\b(\\d{8,10}:AA[A-Za-z0-9_-]{33})\\b',
		keywords: [':aa'],
		anchored: false,
	}),
	keel({
		label: 'Discord bot token',
		regex: '\\b([MN][A-Za-z\\d]{23,25}\\.[\\w-]{6}\\.[\\w-]{27,38})\\b',
		keywords: [],
		anchored: false,
		// No keyword: tried on each run of token characters as long as one (24–26, 6 and 27–38 characters, two dots).
		token: [59, 73],
	}),
	keel({
		label: 'Azure storage key',
		regex: '(?i)\\b(?:AccountKey|SharedAccessKey|SharedAccessSignature)[ \\t]*=[ \\t]*([A-Za-z0-9+/=%]{16,}|[A-Za-z0-9+/=%]{2,}(?:…|$|\\n|;))',
		keywords: ['accountkey', 'sharedaccesskey', 'sharedaccesssignature'],
		anchored: true,
		boundary: true,
	}),
	keel({
		label: 'JWT',
		regex: '\\b(eyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,})',
		keywords: ['eyj'],
		anchored: true,
		boundary: true,
		cased: ['eyJ'],
	}),
	keel({
		label: 'authorization header',
		regex: '\\b(?:Bearer|Basic|Token|Digest)[ \\t]+([A-Za-z0-9._~+/=-]{12,}|[A-Za-z0-9._~+/=-]{2,}…)',
		keywords: ['bearer', 'basic', 'token', 'digest'],
		anchored: true,
		boundary: true,
		cased: ['Bearer', 'Basic', 'Token', 'Digest', 'bearer'],
	}),
	// Docker's config.json and similar: "auth": "base64(user:pass)", identity and registry tokens.
	keel({
		label: 'registry auth',
		regex: '(?i)"(?:auth|identitytoken|registrytoken|password|secret|token)"[ \\t]*:[ \\t]*"((?:\\\\.|[^"\\\\\\n…]){4,})(?:"|…|$|\\n)',
		keywords: ['"auth"', '"identitytoken"', '"registrytoken"', '"password"', '"secret"', '"token"'],
		anchored: true,
		operator: true,
	}),
	// Any scheme, any user (none: `redis://:pw@host`): the password before "@", or up to a cut.
	keel({
		label: 'URL credentials',
		regex: '://[^\\s:/@]*:(?:([^\\s@/…]+)@|([^\\s@/…]+)…)',
		keywords: ['://'],
		anchored: true,
	}),
	// JDBC/ODBC/ADO.NET and query strings: `?password=…`, `&access_token=…`, `;Password=…`.
	keel({
		label: 'credential parameter',
		regex: `(?i)[?&;](?:${PARAM_NAMES.join('|')})=([^&;#\\s"'<>]{1,})`,
		keywords: PARAM_NAMES.flatMap(n => ['?', '&', ';'].map(c => `${c}${n}=`)),
		anchored: true,
	}),
	// ENV-style names (DB_PASSWORD=…, export API_TOKEN="…"): any non-empty value, quoted (spaces allowed) or bare.
	keel({
		label: 'secret assignment',
		regex: `(?:${ENV_NAMES.join('|')})[A-Z0-9_]{0,40}[ \\t]*[=:][ \\t]*("[^"\\n$]+"|'[^'\\n]+'|[^\\s"'$][^\\s"']*)`,
		keywords: lower(ENV_NAMES),
		anchored: true,
		operator: true,
		cased: ENV_NAMES,
		allow: [{ target: 'secret', regexes: ['^"?\\$'], stopwords: [] }],
	}),
	// Config-style settings (password: x, client_secret = "…"): a value that is not code.
	keel({
		label: 'secret setting',
		regex: `(?i)(?:${SECRET_NAMES.join('|')})["']?[ \\t]*[=:][ \\t]*(?:"([^"\\n]{3,})"|'([^'\\n]{3,})'|([^\\s"'$({\\[;,][^\\s;,()]{2,})(?:[ \\t\\r\\n]|$))`,
		keywords: SECRET_NAMES,
		anchored: true,
		operator: true,
		allow: [TYPE_WORDS],
	}),
	keel({
		label: 'secret literal',
		regex: `(?i)(?:secret|token|password|passwd|apikey|api_key)${T}{0,40}["']?[ \\t]*[=:][ \\t]*["']([^"'\\s]{12,})["']`,
		keywords: ['secret', 'token', 'password', 'passwd', 'apikey', 'api_key'],
		anchored: true,
		operator: true,
	}),
];

/** The token families the maintained prefixes form (`gh?_`, `xox?-`): the stem and any letter. */
export function familyRules(families: MaintainedRules['families']): RedactRule[] {
	return families.map(family => {
		const sep = family.separator === '.' ? '\\.' : family.separator;
		return keel({
			id: `family-${family.stem}`,
			label: `${family.vendor} token`,
			// Any letter after the stem; the body may hold "." and URL escapes (Slack's xoxd- cookies are %-encoded).
			regex: `\\b(${family.stem}[a-z]${sep}[A-Za-z0-9](?:[A-Za-z0-9_-]|[.%][A-Za-z0-9]){9,})`,
			keywords: letters(family.stem, family.separator),
			anchored: true,
			boundary: true,
		});
	});
}

/** Every rule, Keel's first. */
export const ALL_RULES: RedactRule[] = [
	...KEEL_RULES,
	...familyRules(MAINTAINED.families),
	...MAINTAINED.rules.map(rule => ({ ...rule, label: rule.id })),
];
