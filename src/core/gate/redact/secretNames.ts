/**
 * The words the redactor's own rules are made of: the names under which a value is a secret
 * (settings, env files, code, connection strings), the vendor prefixes a cut can leave behind,
 * and the words that name a type rather than a value. redactRules.ts builds the rules from them.
 */
import type { MaintainedAllowlist } from './maintainedTypes';

/** Token characters: what follows a vendor prefix. */
export const T = '[A-Za-z0-9_\\-]';

/**
 * Prefixes that make a token's kind certain. A token running into a cut Keel made (a long
 * line cut by read_file, a search passage, the end of a live stream so far: Keel marks its
 * cuts with "…") is redacted however short the part left is: half a key is still a secret.
 */
export const CUT_PREFIXES: Array<[string, string]> = [
	['GitHub token', 'gh[a-z]_|github_pat_'],
	['GitLab token', 'gl(?:pat|ptt|dt|rt|cbt|oas|ft|imt|agent|soat|ffct)-'],
	['Anthropic key', 'sk-ant-'],
	['OpenAI key', 'sk-(?:proj|svcacct|admin)-'],
	['AWS access key', '(?:AKIA|ASIA)[0-9A-Z]'],
	['Hugging Face token', 'hf_'],
	['Slack token', 'xox[a-z]-|xapp-'],
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
	['DigitalOcean token', 'do[a-z]_v1_'],
	['Doppler token', 'dp\\.(?:pt|st|sa|ct|scim|audit)\\.'],
	['JWT', 'eyJ[A-Za-z0-9_-]{4,}\\.'],
	['Twilio key', 'SK[0-9a-fA-F]{8}'],
	['Mailgun key', 'key-[0-9a-zA-Z]{8}'],
	['Databricks token', 'dapi[a-f0-9]{8}'],
	['Telegram bot token', '\\d{8,10}:AA'],
	['Discord bot token', '[MN][A-Za-z\\d]{23,25}\\.'],
];

/** Names under which a value is a secret, in settings files, env files, code and connection strings. */
export const SECRET_NAMES = [
	'password',
	'passwd',
	'passphrase',
	'secret',
	'api_key',
	'api-key',
	'apikey',
	'access_key',
	'access-key',
	'private_key',
	'private-key',
	'auth_token',
	'auth-token',
	'access_token',
	'access-token',
	'refresh_token',
	'refresh-token',
];
export const ENV_NAMES = [
	'SECRET',
	'TOKEN',
	'PASSWORD',
	'PASSWD',
	'PASSPHRASE',
	'APIKEY',
	'API_KEY',
	'PRIVATE_KEY',
	'ACCESS_KEY',
	'AUTH',
	'CREDENTIAL',
];
/** Query and connection-string parameters that carry a credential (`?password=`, `;Password=`, `&sig=`). */
export const PARAM_NAMES = [
	'password',
	'passwd',
	'pwd',
	'pass',
	'secret',
	'token',
	'access_token',
	'api_key',
	'apikey',
	'sig',
	'signature',
	'auth',
];
/** A value that names a type or a constant, not a secret (`password: string`). */
export const TYPE_WORDS: MaintainedAllowlist = {
	target: 'secret',
	regexes: ['^(?:string|number|boolean|null|true|false|undefined|any|none|nil|str|int|bool)$'],
	stopwords: [],
};
