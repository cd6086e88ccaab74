import * as fs from 'fs/promises';
import * as path from 'path';
import type { CheckReport } from '../../core/checkModel/types';
import { redactDeep } from '../../core/gate/redact/redact';

/** Enough for a user comparing the models they tried this year; the oldest go first. */
const KEEP = 60;

/**
 * Check Model reports, one JSON file each in the extension's global storage, named by model,
 * endpoint and date: kept across windows and workspaces, so two models can be compared.
 */
export class ReportStore {
	constructor(private readonly _dir: string) {}

	async save(report: CheckReport): Promise<void> {
		await fs.mkdir(this._dir, { recursive: true });
		await fs.writeFile(this._file(report.id), JSON.stringify(redactDeep(report).value));
		const all = await this.list();
		for (const old of all.slice(KEEP)) {
			await fs.rm(this._file(old.id), { force: true });
		}
	}

	async get(id: string): Promise<CheckReport | undefined> {
		try {
			const report = JSON.parse(await fs.readFile(this._file(id), 'utf8')) as CheckReport;
			// A report kept before its key was redacted shows it cut too.
			return report.version === 1 && report.id === id ? redactDeep(report).value : undefined;
		} catch {
			return undefined;
		}
	}

	/** Newest first. A file that is not a report (a crash mid-write, an older format) is left out. */
	async list(): Promise<CheckReport[]> {
		const names = await fs.readdir(this._dir).catch(() => [] as string[]);
		const reports = await Promise.all(
			names.filter(name => name.endsWith('.json')).map(name => this.get(name.slice(0, -'.json'.length))),
		);
		return reports
			.filter((report): report is CheckReport => report !== undefined)
			.sort((a, b) => b.startedAt.localeCompare(a.startedAt));
	}

	/** Ids come from reports or the view: only a plain file name inside the folder is ever used. */
	private _file(id: string): string {
		if (!/^[\w.@-]+$/.test(id)) {
			throw new Error(`Not a report id: ${id}`);
		}
		return path.join(this._dir, `${id}.json`);
	}
}
