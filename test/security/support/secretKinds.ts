// Generated secrets of every kind Keel's docs name, each in the contexts it is met in (a bare
// line, an env assignment, JSON, YAML, a sentence, a header). Bodies are random from the
// kind's alphabet and length, so the tier never checks one fixed string. `probe` is the part
// that must never be seen again.
import { generateKeyPairSync } from 'crypto';
import { seeded } from './seeded';

export interface GeneratedSecret {
	kind: string;
	/** The text as a file, an output or a prompt holds it (may span lines). */
	text: string;
	probe: string;
	/** The bare token, for the kinds that are one. */
	token?: string;
}

const rnd = seeded(Number(process.env.KEEL_SEED ?? 99_173));
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER_NUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const HEX = '0123456789abcdef';
const B64 = `${ALNUM}+/`;
const URLSAFE = `${ALNUM}_-`;

function body(alphabet: string, length: number): string {
	// Random, but never a run of one character (real keys are not; it keeps entropy honest).
	let out = '';
	while (out.length < length) {
		const c = alphabet[rnd.int(alphabet.length)];
		if (c !== out[out.length - 1]) out += c;
	}
	return out;
}

/** One token of each kind: [kind, token, probe]. */
function tokens(): Array<[string, string, string?]> {
	const slackTeam = body('0123456789', 12);
	const jwt = `eyJhbGciOiJIUzI1NiJ9.eyJ${body(URLSAFE, 40)}.${body(URLSAFE, 43)}`;
	return [
		['AWS access key', `AKIA${body(UPPER_NUM, 16)}`],
		['GitHub token', `ghp_${body(ALNUM, 36)}`],
		['GitHub OAuth token', `gho_${body(ALNUM, 36)}`],
		['GitHub app token', `ghs_${body(ALNUM, 36)}`],
		['GitHub fine-grained token', `github_pat_11${body(UPPER_NUM, 20)}_${body(ALNUM, 59)}`],
		['GitLab token', `glpat-${body(URLSAFE, 20)}`],
		['OpenAI key', `sk-proj-${body(URLSAFE, 48)}T3BlbkFJ${body(URLSAFE, 20)}`],
		['OpenAI legacy key', `sk-${body(ALNUM, 20)}T3BlbkFJ${body(ALNUM, 20)}`],
		['Anthropic key', `sk-ant-api03-${body(URLSAFE, 93)}AA`],
		['Hugging Face token', `hf_${body(ALNUM, 34)}`],
		['Slack bot token', `xoxb-${slackTeam}-${body('0123456789', 13)}-${body(ALNUM, 24)}`],
		['Slack app token', `xapp-1-A${body(UPPER_NUM, 10)}-${body('0123456789', 13)}-${body(HEX, 64)}`],
		// The family, not its listed members: a session token or cookie of any letter (xoxc-, xoxd- …).
		[
			'Slack token of any type letter',
			`xox${rnd.pick('abcdefghijklmnopqrstuvwxyz'.split(''))}-${body('0123456789', 12)}-${body('0123456789', 13)}-${body(HEX, 32)}`,
		],
		['Slack cookie (URL-encoded)', `xoxd-${body(ALNUM, 20)}%2B${body(ALNUM, 30)}%2F${body(ALNUM, 16)}%3D`],
		[
			'Slack webhook',
			`https://hooks.slack.com/services/T${body(UPPER_NUM, 8)}/B${body(UPPER_NUM, 8)}/${body(ALNUM, 24)}`,
		],
		['Google API key', `AIza${body(URLSAFE, 35)}`],
		['Google OAuth secret', `GOCSPX-${body(URLSAFE, 28)}`],
		['Google OAuth token', `ya29.${body(URLSAFE, 60)}`],
		['Stripe key', `sk_live_${body(ALNUM, 24)}`],
		['Stripe restricted key', `rk_test_${body(ALNUM, 24)}`],
		['Stripe webhook secret', `whsec_${body(ALNUM, 32)}`],
		['npm token', `npm_${body(ALNUM, 36)}`],
		['PyPI token', `pypi-AgEIcHlwaS5vcmc${body(URLSAFE, 60)}`],
		['SendGrid key', `SG.${body(URLSAFE, 22)}.${body(URLSAFE, 43)}`],
		['Twilio key', `SK${body(HEX, 32)}`],
		['Mailgun key', `key-${body(HEX, 32)}`],
		['Shopify token', `shpat_${body(HEX, 32)}`],
		['Linear key', `lin_api_${body(ALNUM, 40)}`],
		['1Password token', `ops_eyJ${body(URLSAFE, 60)}`],
		['DigitalOcean token', `dop_v1_${body(HEX, 64)}`],
		['Doppler token', `dp.pt.${body(ALNUM, 43)}`],
		['Databricks token', `dapi${body(HEX, 32)}`],
		['Telegram bot token', `${body('123456789', 10)}:AA${body(URLSAFE, 33)}`],
		['Discord bot token', `M${body(ALNUM, 23)}.${body(URLSAFE, 6)}.${body(URLSAFE, 27)}`],
		['JWT', jwt],
	];
}

/** The contexts a token is met in; `{}` is where the token goes. */
const CONTEXTS = [
	'{}',
	'API_TOKEN={}',
	'export SERVICE_KEY="{}"',
	'{"token": "{}"}',
	'credentials:\n  value: {}',
	'Use {} to call the service.',
	'curl -H "Authorization: Bearer {}" https://api.example.com',
	'GITHUB_TOKEN={}',
];

export function generatedSecrets(): GeneratedSecret[] {
	const out: GeneratedSecret[] = [];
	for (const [kind, token] of tokens()) {
		const context = rnd.pick(CONTEXTS);
		out.push({
			kind,
			token,
			text: context.replace('{}', token),
			probe: token.slice(Math.max(4, token.length - 24)),
		});
	}
	const password = body(ALNUM, 10 + rnd.int(10));
	const b64 = body(B64, 40);
	out.push(
		{
			kind: 'AWS secret',
			text: `[default]\naws_access_key_id = AKIA${body(UPPER_NUM, 16)}\naws_secret_access_key = ${b64}`,
			probe: b64.slice(8, 32),
		},
		{ kind: 'URL password', text: `postgres://app:${password}@db.example.com:5432/app`, probe: password },
		// Any scheme, with a user or without one (`redis://:pw@host`), a password of any length.
		...[
			'redis',
			'rediss',
			'mongodb+srv',
			'amqps',
			'mysql',
			'sqlserver',
			`x${body('abcdefghijklmnopqrstuvwxyz', 6)}`,
		].map(scheme => {
			const secret = body(ALNUM, 2 + rnd.int(16));
			const user = rnd.pick(['', 'default', 'svc']);
			return {
				kind: `URL password (${scheme}, user "${user}")`,
				text: `${scheme}://${user}:${secret}@cache.internal:6379/0`,
				probe: `:${secret}@`,
			};
		}),
		{ kind: 'password assignment', text: `DB_PASSWORD=${password}`, probe: password },
		{ kind: 'config password', text: `database:\n  password: ${password}`, probe: password },
		{
			kind: 'Azure storage key',
			text: `DefaultEndpointsProtocol=https;AccountName=st;AccountKey=${body(B64, 86)}==;`,
			probe: '',
		},
		{ kind: 'Basic auth header', text: `Authorization: Basic ${body(B64, 28)}==`, probe: '' },
		{ kind: 'Docker registry auth', text: `{"auths":{"ghcr.io":{"auth":"${body(B64, 32)}"}}}`, probe: '' },
	);
	for (const item of out) {
		if (item.probe === '') {
			const match = /(?:AccountKey=|Basic |"auth":")([A-Za-z0-9+/]{16,})/.exec(item.text);
			item.probe = match![1].slice(4, 24);
		}
	}
	return [...out, ...keys()];
}

/** Private keys: real ones from Node's crypto, plus the PGP and PuTTY block shapes. */
function keys(): GeneratedSecret[] {
	const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
	const pkcs8 = rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
	const pkcs1 = rsa.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
	const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' })
		.privateKey.export({ type: 'sec1', format: 'pem' })
		.toString();
	const bodyOf = (pem: string) => pem.split('\n')[3];
	const pgpLine = body(B64, 64);
	const puttyLine = body(B64, 48);
	return [
		{ kind: 'PEM private key', text: pkcs8.trim(), probe: bodyOf(pkcs8).slice(8, 32) },
		{ kind: 'RSA private key', text: pkcs1.trim(), probe: bodyOf(pkcs1).slice(8, 32) },
		{ kind: 'EC private key', text: ec.trim(), probe: ec.split('\n')[2].slice(8, 32) },
		{
			kind: 'PGP private key',
			text: `-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n${pgpLine}\n${body(B64, 64)}\n=Ab3d\n-----END PGP PRIVATE KEY BLOCK-----`,
			probe: pgpLine.slice(8, 32),
		},
		{
			kind: 'PuTTY private key',
			text: `PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: k\nPublic-Lines: 2\nAAAAC3NzaC1lZDI1NTE5AAAAIHq8Vx2\nPrivate-Lines: 1\n${puttyLine}\nPrivate-MAC: 7f3a`,
			probe: puttyLine.slice(8, 32),
		},
	];
}
